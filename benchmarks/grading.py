"""Grading throughput: answers judged per second by `symattn grade` (whole process, 2 workers).

    python -m benchmarks.grading            # 1000 students x 2 claims on two worked examples

The target (issue: answer verification) is at least 100 ordinary answers per second on this
2-core machine. Ordinary answers: fractions, correctly and wrongly rounded decimals, equivalent
forms; a tenth of the rows are hostile (code, towers, malformed text), as in a real class.
"""

from __future__ import annotations

import csv
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    "02_causal_three_positions": ("A[3]", "O[3,1]", ["(1/6, 1/2, 1/3)", "(0.17, 0.5, 0.33)",
                                                     "(1/6, 0.5, 0.3)", "(2/12, 3/6, 2/6)"],
                                  ["7/3", "2.33", "2.3333", "14/6", "2.4"]),
    "01_two_positions": ("A[1]", "A[1,1]", ["(0.6698, 0.3302)", "(0.67, 0.33)", "(0.7, 0.3)",
                                             "(0.6697, 0.3303)"],
                         ["1/(1+exp(-sqrt(2)/2))", "0.6698", "exp(1/sqrt(2))/(exp(1/sqrt(2))+1)",
                          "0.67", "1/2"]),
}
HOSTILE = ["__import__('os').system('true')", "9^9^9", "exp(exp(exp(exp(1))))", "(1/6, 1/2",
           "lambda: 1", "1/0", ""]


def write_csv(path: Path, keys: tuple[str, str], first: list[str], second: list[str],
              students: int, seed: int = 11) -> None:
    """A class of students: 90 % ordinary answers, 10 % hostile ones."""
    rng = random.Random(seed)
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["id", *keys])
        for i in range(students):
            pools = (first, second) if i % 10 else (HOSTILE, HOSTILE)
            writer.writerow([f"s{i:04d}", rng.choice(pools[0]), rng.choice(pools[1])])


def measure(example: str, students: int = 1000, repeats: int = 3) -> tuple[float, int]:
    """Median wall seconds of the whole `symattn grade` process, and the number of answers."""
    keys_first, keys_second, first, second = CASES[example]
    with tempfile.TemporaryDirectory() as work:
        csv_path = Path(work) / "answers.csv"
        write_csv(csv_path, (keys_first, keys_second), first, second, students)
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "symattn", "grade",
                            str(ROOT / "worked_examples" / example / "problem.toml"),
                            "--submissions", str(csv_path), "-o", str(Path(work) / "report.csv")],
                           check=True, capture_output=True, cwd=ROOT)
            times.append(time.perf_counter() - started)
    return statistics.median(times), students * 2


def main() -> int:
    print("example                      answers  median s  answers/s  target >= 100/s")
    for example in CASES:
        seconds, answers = measure(example)
        rate = answers / seconds
        print(f"{example:<28} {answers:>7}  {seconds:8.2f}  {rate:9.0f}  {'met' if rate >= 100 else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
