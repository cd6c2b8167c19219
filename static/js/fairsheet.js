// Fairsheet's small enhancements. Everything works without this file.
