// ---- start-up: set up each part, draw the state from the link, show the lab --------------
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
