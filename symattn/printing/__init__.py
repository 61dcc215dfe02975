"""Printing: exact values as LaTeX and text, their canonical form and term order, and how wide
LaTeX math sets (measuring, fitting displays and matrices to the text block)."""
