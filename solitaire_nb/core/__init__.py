"""The vocabulary every room speaks: cards, moves, pile rules as data, numbered deals,
the checks at the public API's door and the Spanish words and numbers a reader sees.

Nothing here imports another room of the package."""
