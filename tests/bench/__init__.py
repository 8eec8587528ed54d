"""Benchmarks on generated big files (``make bench``); not collected by pytest."""
