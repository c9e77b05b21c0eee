# Army building (vahalite_bot/codex): roster problems (A1-A7) and the plain-text army list.
# Units, options and factions come as names in the reader's language; $slot as codex-slot-*.

codex-quoted = “{ $text }”

## Force organisation slots

codex-slot-hq = HQ
codex-slot-troops = Troops
codex-slot-elite = Elite
codex-slot-fast = Fast Attack
codex-slot-heavy = Heavy Support
codex-slot-transport = Transport

## Roster problems: one message per RosterProblem code (rules A1-A7)

codex-roster-over_points = The army costs { $points } points, { $over } over the limit of { $limit } (A1).
codex-roster-too_few = Too few { $slot }: { $count }, at least { $minimum } needed (A2).
codex-roster-too_many = Too many { $slot }: { $count }, at most { $maximum }; trading needs { $needed } spare { $needed ->
        [one] slot
       *[other] slots
    } and the army has { $spare } (A3).
codex-roster-unknown_sheet = No unit “{ $sheet }” in this codex (A6).
codex-roster-wrong_faction = “{ $sheet }” is from another codex ({ $faction }); an army comes from one codex (A6).
codex-roster-transport_without_unit = “{ $sheet }” is a transport: it is bought for a unit, not on its own (A4).
codex-roster-too_many_options = “{ $sheet }”: { $count } options chosen; at most two, each once (A5).
codex-roster-unknown_option = “{ $sheet }” has no option “{ $option }” (A5).
# $options: the option names, each quoted (codex-quoted), joined with commas.
codex-roster-duplicate_option = “{ $sheet }”: { $options } chosen more than once (A5).
codex-roster-not_a_transport = “{ $sheet }” is not a transport (A4).
codex-roster-cannot_carry = “{ $transport }” cannot carry “{ $sheet }” (A4, H1).

## The army list text format: what a line says that cannot be read

# $reason: one of the messages below.
codex-list-line = Line { $line } (“{ $text }”): { $reason }
codex-list-no_units = The list holds no units.
# $hint: codex-list-hint or codex-list-no_hint.
codex-list-unknown_unit = no unit named “{ $name }”{ $hint }
codex-list-unknown_option = “{ $unit }” has no option “{ $option }”{ $hint }
codex-list-several_transports = a unit has at most one transport (A4).
codex-list-bad_points = points go in square brackets at the end: [90].
codex-list-points_mismatch = it says { $shown } { $shown ->
        [one] point
       *[other] points
    }, the codex says { $actual }.
codex-list-total_mismatch = it says { $shown } { $shown ->
        [one] point
       *[other] points
    } in all, the units cost { $actual }.
codex-list-unknown_faction = cannot tell the codex: start the list with the faction's name (say, “{ $example }, 750 pts”).
# $factions: the faction names, joined with commas.
codex-list-ambiguous_unit = “{ $name }” is in several codexes ({ $factions }): start the list with the faction's name.
codex-list-empty_name = an empty unit or option name.
codex-list-hint = ; did you mean “{ $suggestion }”?
codex-list-no_hint = .

## Words of the list format itself, as exported: the parser reads them back (and more spellings)

codex-format-points = pts
codex-format-total = Total
