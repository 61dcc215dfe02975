"""Answers: judging claims against the exact result, batch grading, the classic mistakes."""
