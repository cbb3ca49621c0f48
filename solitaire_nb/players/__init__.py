"""Players who do not peek: they choose each move from what a person at the table sees
(`player`), read through a `scene` of the position."""
