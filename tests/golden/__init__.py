"""Golden board images and the scenes they show (tests/test_render_golden.py)."""
