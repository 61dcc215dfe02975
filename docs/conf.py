"""Sphinx configuration of symattn's documentation site (MyST Markdown, the symattn directive).

Build (from the repository root, after `pip install -e '.[docs]'`):

    python -m sphinx -W -b html docs docs/_build/html
"""

project = "symattn"
author = "symattn contributors"
extensions = ["symattn.sphinx", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
myst_enable_extensions = ["dollarmath"]
exclude_patterns = ["_build", "mkdocs/**", "*.ipynb"]
root_doc = "index"
html_theme = "alabaster"
html_title = "symattn"
autodoc_member_order = "bysource"
autodoc_typehints = "description"
napoleon_google_docstring = True
mathjax3_config = {"tex": {"packages": {"[-]": ["noundefined"]}}}
"""An unknown macro is an error node in the page, not red text (the tests look for error nodes)."""
latex_engine = "xelatex"
latex_elements = {"fontpkg": ""}
"""XeLaTeX for the Chinese examples, in Latin Modern (Sphinx's FreeSerif is rarely installed)."""
