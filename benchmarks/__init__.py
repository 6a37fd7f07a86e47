"""Side-by-side benchmarks: each compares within one run and prints ratios."""
