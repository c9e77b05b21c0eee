"""Benchmarks for the Vaha-Lite rules engine and self-play."""
