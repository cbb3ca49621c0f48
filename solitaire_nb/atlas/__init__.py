"""The atlas room: win rates of many numbered deals and how a reader sees them.

- `winrate`: `win_rate`, the entry point; `result` its `WinRate` and Spanish texts;
  `intervals` the 95 % intervals; `executors` where deals are solved; `arguments` the checks;
- `studyfile`: resumable study files (`records` their format, `files` careful file I/O,
  `params` which study a header describes);
- `summary`: the committed atlas (``data/atlas.json``); `view` and `plots`: the atlas as
  notebook 07 shows it; `lab_measures`: the rules lab's measures.
"""
