"""Win rates of many numbered deals (`winrate`), their study files (`studyfile`), the atlas
of notebook 07 as a reader sees it (`view`) and the rules lab's measures (`lab_measures`)."""
