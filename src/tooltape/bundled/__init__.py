"""Data shipped with tooltape: the project's own cassettes (a link to ``cassettes/``),
so ``tooltape check`` does real work right after ``pip install``."""
