"""Johnson, HF radio ARQ under Internet-style and wireless-friendly e-mail.

For now only the published values (:mod:`.published`); the study itself (scenarios,
runs, tables, claims) needs the HF channel, modems and ARQ models and is not registered.
"""
