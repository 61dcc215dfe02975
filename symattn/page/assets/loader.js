// symattn course page loader: unpacks KaTeX's script and the page's own script (gzip, base64) and
// runs them as inline scripts, whose hashes the page's Content-Security-Policy lists.
"use strict";
(async () => {
  try {
    for (const id of ["symattn-katex", "symattn-script"]) {
      const bytes = Uint8Array.from(atob(document.getElementById(id).textContent.trim()), (c) => c.charCodeAt(0));
      const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      const script = document.createElement("script");
      script.textContent = await new Response(stream).text();
      document.head.append(script);
    }
  } catch (error) {
    document.body.dataset.error = String(error);
    document.getElementById("old-browser").hidden = false;
  }
})();
