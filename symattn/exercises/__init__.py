"""Exercises: fresh problems with readable answers, and problem sets with worked solutions."""
