// ---- start-up: set up each part, draw the state from the link, show the lab --------------
import { $, data, fill, values } from "./core.js";
import { readHash, state, writeHash } from "./state.js";
import { setUpControls } from "./controls.js";
import { fitLayout, renderState } from "./render.js";
import { setUpEditor } from "./edit.js";
import { renderWalk, setUpWalk } from "./walk.js";
import { setUpHeads } from "./heads.js";
import { setUpLesson } from "./lesson.js";
setUpHeads();
setUpLesson();
setUpControls();
setUpEditor();
renderState();
setUpWalk();
renderWalk();
$("footer").textContent = fill("footer", { source: data.source, places: data.places });
window.addEventListener("hashchange", () => {
  Object.assign(state, readHash());
  renderState();
  renderWalk();
  writeHash();
});
document.body.classList.toggle("shapes-only", !values);
$("app").hidden = false;
fitLayout();
writeHash();
document.body.dataset.ready = "1";
// in a frame: the page's height to the host, which may size the frame by it (the Sphinx
// directive's frame does); a number, nothing else, to any host
if (window.parent !== window) {
  let told = 0;
  new ResizeObserver(() => {
    const height = document.documentElement.scrollHeight;
    if (height !== told) window.parent.postMessage({ symattn: "height", height: told = height }, "*");
  }).observe(document.body);
}
