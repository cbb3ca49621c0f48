"""A class served from the teacher's computer: the launcher (`python -m solitaire_nb.classroom`,
`launcher`, `args`, `server`) and the class challenge (`challenge`, `challenge_state`,
`challenge_server`, `record`, `summary`)."""
