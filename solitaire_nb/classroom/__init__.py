"""A class served from the teacher's computer: the launcher (`python -m solitaire_nb.classroom`,
`launcher`, `args`, `server`), the class core every class with seats shares (`class_core`,
`record`, `inbound`), the class challenge (`challenge`, `challenge_state`, `challenge_server`,
`summary`) and a lesson's class pool (`pool`, `pool_state`, `pool_server`)."""
