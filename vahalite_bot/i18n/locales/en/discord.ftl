# The Discord adapter (vahalite_bot/discord): slash-command names and descriptions, buttons,
# the lobby, posts in a game's thread or forum post, and refusals particular to Discord.

## Slash commands: names (lowercase, no spaces) and descriptions (at most 100 characters).
discord-cmd-vl = vl
discord-cmd-vl-desc = Play Vaha-Lite
discord-cmd-new = new
discord-cmd-new-desc = Open a new game in its own thread or forum post
discord-cmd-join = join
discord-cmd-join-desc = Join the game of this thread as its second player
discord-cmd-army = army
discord-cmd-army-desc = Submit your army: a ready-made list of a faction, or paste your own
discord-cmd-setup = setup
discord-cmd-setup-desc = Setup steps: deployment order, terrain, SPs, deployment; house rules: orders, reserves
discord-cmd-first = first
discord-cmd-first-desc = Won the roll-off: choose who deploys first (B2)
discord-cmd-terrain = terrain
discord-cmd-terrain-desc = Place a terrain piece in your half (B3)
discord-cmd-sp = sp
discord-cmd-sp-desc = Place a strategic point (B4)
discord-cmd-deploy = deploy
discord-cmd-deploy-desc = Deploy a unit in your zone (B5); with M5, bring a reserve in
discord-cmd-move = move
discord-cmd-move-desc = Move a unit (onto a friendly transport: embark; a waiting passenger: place it)
discord-cmd-attack = attack
discord-cmd-attack-desc = Attack an enemy unit; every die is shown
discord-cmd-embark = embark
discord-cmd-embark-desc = Move a unit into a friendly transport (H2)
discord-cmd-disembark = disembark
discord-cmd-disembark-desc = Get a unit out of its transport onto a cell (H3)
discord-cmd-advance = advance
discord-cmd-advance-desc = After a melee kill: take the cell, or stay (E10)
discord-cmd-pause = pause
discord-cmd-pause-desc = Ask to pause the game (or to resume it); it happens when both agree
discord-cmd-end = end
discord-cmd-end-desc = End your turn
discord-cmd-undo = undo
discord-cmd-undo-desc = Take back your last actions (with dice rolled, your opponent must agree)
discord-cmd-board = board
discord-cmd-board-desc = Show the board
discord-cmd-status = status
discord-cmd-status-desc = Armies with HP, VP, round, whose turn
discord-cmd-odds = odds
discord-cmd-odds-desc = The exact odds of an attack
discord-cmd-sheet = sheet
discord-cmd-sheet-desc = An army's units with their profiles and weapons
discord-cmd-log = log
discord-cmd-log-desc = The last entries of the game's log, with every die
discord-cmd-resign = resign
discord-cmd-resign-desc = Concede the game (asks to confirm)
discord-cmd-help = help
discord-cmd-help-desc = How to play here: commands and text orders
discord-cmd-rule = rule
discord-cmd-rule-desc = Show a rule by its ID, e.g. E8

## Options of the commands
discord-opt-opponent = opponent
discord-opt-opponent-desc = Who plays North: a person who joins, or the built-in bot
discord-opt-points = points
discord-opt-points-desc = The points limit of both armies
discord-opt-scenario = scenario
discord-opt-scenario-desc = The board and its rules
discord-opt-faction = faction
discord-opt-faction-desc = A faction's ready-made list; leave empty to paste your own list
discord-opt-unit = unit
discord-opt-unit-desc = One of your units, e.g. tac1
discord-opt-cell = cell
discord-opt-cell-desc = A cell of the board, e.g. C4
discord-opt-target = target
discord-opt-target-desc = The enemy unit to attack
discord-opt-weapons = weapons
discord-opt-weapons-desc = Weapon numbers from the sheet, e.g. 1,2 (default: every weapon that reaches)
discord-opt-mode = mode
discord-opt-mode-desc = Melee or ranged (default: melee if it can, else ranged)
discord-opt-transport = transport
discord-opt-transport-desc = Your transport to board
discord-opt-kind = kind
discord-opt-kind-desc = The terrain piece to place
discord-opt-deploy-first = deploy-first
discord-opt-deploy-first-desc = True: you deploy first; false: your opponent does
discord-opt-take = take
discord-opt-take-desc = True: move into the cell; false: stay
discord-opt-count = count
discord-opt-count-desc = How many of your last actions to take back
discord-opt-side = side
discord-opt-side-desc = Whose army (default: yours, or both)
discord-opt-id = id
discord-opt-id-desc = A rule ID such as E8

## Choices
discord-choice-human = a person
discord-choice-bot = the bot (practice)
discord-choice-melee = melee
discord-choice-ranged = ranged
discord-choice-south = South
discord-choice-north = North

## Buttons
discord-btn-join = Join
discord-btn-bot = Play the bot
discord-btn-end = End turn
discord-btn-undo = Undo
discord-btn-board = Board
discord-btn-odds = Odds
discord-btn-accept = Accept
discord-btn-decline = Decline
discord-btn-yes = Yes, resign
discord-btn-no = No

## Forum tags
discord-tag-open = Seeking an opponent
discord-tag-playing = Playing
discord-tag-finished = Finished

## The lobby
discord-thread-name = Vaha-Lite: { $creator }
discord-lobby = **Vaha-Lite, game #{ $game }**
    Created by { $creator } · { $points } points · scenario: { $scenario }{ $house }
    Dice commitment (K2): `{ $commitment }`
    { $opponent }
discord-lobby-waiting = Waiting for an opponent: press **Join**, or **Play the bot** for practice.
discord-lobby-full = Players: { $south } (South) and { $north } (North). Next: both submit armies with `/vl army`.
discord-joined = { $user } joins as North. Both players: submit your armies with `/vl army` (a faction's ready-made list, or paste your own).
discord-army-in = { $user } has submitted an army ({ $side }).
discord-army-list = { $user }'s army ({ $side }):
discord-modal-title = Your army list
discord-modal-label = Army list: faction and points on line one
discord-modal-placeholder = Space Marines, 750 pts
discord-bot-name = the bot ({ $player })
discord-practice-joined = The bot joins as North and has submitted its army ({ $faction }). Submit yours with `/vl army`.

## Posts in a game
discord-acts-next = Next: { $who }.
discord-acts-next-setup = Next: { $who } ({ $phase }).
discord-acts-next-pending = { $who } decides first.
discord-by = { $user }:
discord-status-title = **Vaha-Lite #{ $game }** · { $phase }
discord-status-round = Round { $round } of { $rounds } · { $side } to play
discord-status-score = VP: South { $south } · North { $north }
discord-status-deadline = Deadline: { $deadline }
discord-status-paused = Paused by the referee.
discord-status-players = South: { $south } · North: { $north }
discord-status-unit = { $unit } · { $hp }/{ $max } HP
discord-status-unit-dead = ~~{ $unit }~~ destroyed
discord-game-over = The game is over. { $result }
discord-seed = Dice seed (K2): `{ $seed }` (its SHA-256 is the commitment `{ $commitment }` published at the start).
discord-done = Done: see the post in the game.
discord-undo-question = { $asker } asks to take back actions with dice rolled. { $answerer }, do you agree?
discord-resign-question = Really resign this game? Your opponent wins.
discord-resign-cancelled = You play on.
discord-text-board = The board as text (the bot may not post images here):

## Odds summary (the Odds button)
discord-odds-none = None of your units can attack now.
discord-odds-line = { $unit } → { $target }: { $dice } dice, { $needed }+ — { $percent }% ≥1 dmg, { $kill }% kill
discord-odds-choice = { $target } — { $dice } dice, { $needed }+ — { $percent }% ≥1 dmg

## Orders posted as messages
discord-orders-applied = ✓ { $line }
discord-orders-refused = ✗ { $line } — { $reason }
discord-orders-skipped = · { $line } (not tried)

## Refusals and errors particular to Discord (ephemeral)
discord-not-game-channel = There is no game in this channel. Start one with `/vl new`, or use the command in a game's thread or post.
discord-needs-server = Vaha-Lite games are played on a server, not in direct messages.
discord-cannot-open = I cannot open a thread or forum post here: { $reason }. Ask an administrator, or use `/vl new` in another channel.
discord-stale-button = The game has moved on since this message: here is the current state.
discord-not-your-button = This button is for { $who }.
discord-unexpected = Something went wrong on my side (error id `{ $id }`). Nothing was changed by the failed part; tell the bot's operator this id.
discord-missing-permission = I am missing the permission **{ $permission }** in this channel: { $effect } An administrator can grant it; the game goes on meanwhile.
discord-effect-attach = I post the board as text instead of an image.
discord-effect-pin = I cannot pin the game's status message.
discord-effect-tags = I cannot create the forum's game tags.
discord-no-such-rule = There is no rule “{ $id }”. Rule IDs look like A1, E8, N2.
discord-no-faction = There is no faction “{ $faction }”: pick one from the list.
discord-no-ready-list = { $faction } has no ready-made list for { $points } points: paste your own list with `/vl army` and no faction.
discord-bad-cell = “{ $cell }” is not a cell of this board: type a column letter and a row number, e.g. C4.
discord-bad-weapons = “{ $text }” is not a list of weapon numbers: type numbers from the sheet, e.g. 1,2.
discord-help = **Vaha-Lite here**: one game per thread (or forum post). `/vl new` opens one; `/vl join` or the **Join** button takes the other side; `/vl army` submits an army.
    Setup: `/vl setup first`, `/vl setup terrain`, `/vl setup sp`, `/vl setup deploy`. Play: `/vl move`, `/vl attack`, `/vl embark`, `/vl disembark`, `/vl advance`, `/vl place`, `/vl end`, `/vl undo`. Anyone may read: `/vl board`, `/vl status`, `/vl odds`, `/vl sheet`, `/vl log`, `/vl rule E8`.
    House rules: `/vl setup orders` (M3), `/vl setup reserve` (M5), `/vl move … fall-back` (M6), `/vl attack … charge-to` (M8); the **All advance** and **No reserves now** buttons.
    { $orders }
discord-help-orders-on = **Text orders**: in the game's thread, players may also write orders as in a forum, one per line, in Russian or English: `tac1 C4`, `tac1 > kab1`, `end`.
discord-help-orders-off = Text orders are off on this bot (it lacks the message-content intent): use the slash commands.
discord-no-unit = There is no unit “{ $unit }” in this game: pick one from the list.
discord-bad-kind = “{ $kind }” is not a terrain piece you have left: pick one from the list.
discord-bot-declines-undo = The bot does not agree to undo actions with dice rolled.
discord-log-undone = (undone)

## The referee (N2) and the server's settings
discord-cmd-ref = ref
discord-cmd-ref-desc = The referee's overrides (referee role or administrators)
discord-cmd-ref-move = move
discord-cmd-ref-move-desc = Put a unit on a cell
discord-cmd-ref-remove = remove
discord-cmd-ref-remove-desc = Take a unit off the board
discord-cmd-ref-hp = hp
discord-cmd-ref-hp-desc = Set a unit's HP
discord-cmd-ref-undo = undo
discord-cmd-ref-undo-desc = Undo the last entries of the log
discord-cmd-ref-end = end
discord-cmd-ref-end-desc = End the current turn
discord-cmd-ref-extend = extend
discord-cmd-ref-extend-desc = Extend the current turn's deadline
discord-cmd-ref-pause = pause
discord-cmd-ref-pause-desc = Pause the game (its deadline stops)
discord-cmd-ref-resume = resume
discord-cmd-ref-resume-desc = Resume a paused game
discord-cmd-ref-decide = decide
discord-cmd-ref-decide-desc = Decide the game: a winner, or a draw
discord-cmd-config = config
discord-cmd-config-desc = This server's settings (administrators)
discord-cmd-config-referee = referee-role
discord-cmd-config-referee-desc = The role whose members referee games (none: administrators only)
discord-cmd-config-deadline = deadline
discord-cmd-config-deadline-desc = The default hours a player has for a turn
discord-cmd-config-forfeit = forfeit
discord-cmd-config-forfeit-desc = Missed turns in a row that forfeit a game
discord-cmd-config-language = language
discord-cmd-config-language-desc = The language of new games' posts
discord-opt-hp = hp
discord-opt-hp-desc = The unit's new HP
discord-opt-hours = hours
discord-opt-hours-desc = Hours, 1 to 336
discord-opt-winner = winner
discord-opt-winner-desc = Who wins, or a draw
discord-opt-role = role
discord-opt-role-desc = The referee role; leave empty for administrators only
discord-opt-forfeit-desc = How many missed turns in a row forfeit the game
discord-opt-language = language
discord-opt-language-desc = Russian or English
discord-choice-draw = a draw
discord-ref-did = { $referee } (referee): { $what }
discord-ref-move = { $unit } is put on { $cell }.
discord-ref-remove = { $unit } is taken off the board.
discord-ref-hp = { $unit } now has { $hp } HP.
discord-ref-undo = { $count ->
        [one] the last entry is undone.
       *[other] the last { $count } entries are undone.
    }
discord-ref-end = the turn is ended.
discord-ref-extend = the deadline is extended by { $hours } h.
discord-ref-pause = the game is paused.
discord-ref-resume = the game is resumed.
discord-ref-decide = the game is decided: { $winner }.
discord-config-now = This server: referee role { $role }, language { $language }, { $hours } h per turn, a reminder { $remind ->
        [0] when a quarter of the turn is left
       *[other] { $remind } h before the deadline
    }, forfeit after { $forfeit } missed turns in a row.

## Deadlines (N1)
discord-reminder = { $user }, your turn in this game ends { $due }.
discord-expired = Time is up for { $user }'s turn.

## The end of a game
discord-verify = Every die can be checked from the attached log alone: `python -m vahalite_bot.verify { $file }` (or by hand: HMAC-SHA256 of the seed and each die's position, skipping bytes 252-255; docs/dice.md).
discord-choice-ru = Russian
discord-choice-en = English
discord-recap = { $user }, while you were away:

## Coming back to one's games
discord-cmd-games = games
discord-cmd-games-desc = Your games on this server: whose turn, the deadline, a link to each
discord-cmd-my-turn = my-turn
discord-cmd-my-turn-desc = Your games on this server that wait for you
discord-cmd-notify = notify
discord-cmd-notify-desc = Deadline reminders by direct message too (on or off)
discord-opt-dm = dm
discord-opt-dm-desc = True: also remind me by direct message
discord-games-line = #{ $game } { $link } — to play: { $who } · deadline { $due }
discord-games-you = you
discord-games-none = You play no unfinished game on this server. `/vl new` starts one.
discord-games-none-waiting = No game waits for you on this server.
discord-notify-on = Reminders will also come by direct message.
discord-notify-off = Reminders will come only in the games' threads.
discord-reminder-dm = Your turn in { $link } ends { $due }.
discord-btn-agree = Agree
discord-opt-turn-hours-desc = Hours each turn may take in this game (default: the server's)
discord-opt-word = word
discord-opt-word-desc = Your word for the dice (K2): mixed into the seed, so nobody alone chose them

discord-cmd-config-reminder = reminder
discord-cmd-config-reminder-desc = When a player is reminded of a deadline (hours before it)
discord-opt-remind-hours-desc = Hours before the deadline; 0: a quarter of the turn, at most 12 h
