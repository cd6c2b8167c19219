"""Reference data transcribed from the rule texts: plain Python, standard library only."""
