// Typeset what pymdownx.arithmatex (generic: true) marked: \( \) inline, \[ \] display.
document.addEventListener("DOMContentLoaded", function () {
  for (const element of document.querySelectorAll(".arithmatex")) {
    renderMathInElement(element, {
      delimiters: [{ left: "\\(", right: "\\)", display: false },
                   { left: "\\[", right: "\\]", display: true }],
      throwOnError: false,
    });
  }
});
