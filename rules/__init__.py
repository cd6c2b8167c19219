"""Fairsheet's rules engine: pure Python, no Django (tests/rules/test_rules_purity.py keeps it so).

Rulesets are data (rulesets.py), characters are plain values (character.py), the character
file is read and written by charfile.py, and report/ prices a character against a ruleset.
"""
