# python -m vahalite_bot.verify and the console's "verify" (docs/dice.md)
verify-game = Game #{ $game }: hash of the dice seed published at its creation { $commitment }
verify-word = Word mixed into the seed by { $side }: «{ $word }»
verify-die = #{ $seq } die at position { $position } ({ $purpose }): { $value }
verify-die-checked = #{ $seq } die at position { $position } ({ $purpose }): { $value }, the seed gives { $expected }
verify-no-seed = { $count ->
        [one] 1 die is in order
       *[other] { $count } dice are in order
    }; their values can be checked once the game has ended and its seed is revealed.
verify-failed = { $count ->
        [one] 1 problem
       *[other] { $count } problems
    }: this log does not verify.
verify-ok = Verified: { $count ->
        [one] the 1 die
       *[other] all { $count } dice
    } of this game come from the seed { $seed }, whose hash was published before any word was added.
verify-seq = Entry #{ $seq } comes where #{ $expected } should: entries are missing or out of order.
verify-no-creation = The first entry is not the game's creation: the published hash cannot be checked.
verify-commitment-mismatch = The hash in the file's header is not the one published at the game's creation.
verify-late-word = Entry #{ $seq } adds a word after dice were rolled.
verify-two-words = Entry #{ $seq } adds a second word for the same side.
verify-bad-word = Entry #{ $seq } has a word that is not 1 to 32 printable characters.
verify-bad-seed = Entry #{ $seq } reveals a seed that is not hexadecimal.
verify-two-seeds = Entry #{ $seq } reveals another seed than the one given.
verify-seed-mismatch = The revealed seed does not match the hash published at the game's creation.
verify-position = Entry #{ $seq }: a die at position { $position } where position { $expected } should be: a die was skipped or repeated.
verify-wrong-die = Entry #{ $seq }: the die at position { $position } shows { $value }, the seed gives { $expected }.
verify-empty = The file is empty.
verify-not-a-log = This is not an exported Vaha-Lite game log.
verify-version = This log is in format version { $version }, which this verifier does not know.
verify-bad-line = Line { $line } of the file is not a log entry.
verify-too-big = The file is too large to be a game log.
verify-unreadable = Cannot read the file: { $error }
