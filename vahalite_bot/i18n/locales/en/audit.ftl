# Refusals added after the outside audit of the service (issue 17).

service-key_mismatch = This request id was already used for a { $command } order with other values, so nothing was done: send this order with a new request id.
service-wrong_server = This game belongs to another server than the one you are writing from: create or join it on its own server.
service-scenario_missing = This game is played on the scenario “{ $scenario }”, but this bot has no file { $file } in its boards folder: ask the bot's operator to put it back. Nothing was changed.
service-empty_path = “{ $argument }” has an empty path: a move names at least one cell to go to.
