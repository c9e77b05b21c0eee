# Сбор армии (vahalite_bot/codex): ошибки ростера (A1-A7) и текстовый список армии.
# Отряды, опции и фракции приходят названиями на языке читателя; $slot — как в codex-slot-*.

codex-quoted = «{ $text }»

## Слоты структуры армии

codex-slot-hq = Штаб (HQ)
codex-slot-troops = Войска (Troops)
codex-slot-elite = Элита (Elite)
codex-slot-fast = Быстрая атака (Fast Attack)
codex-slot-heavy = Тяжёлая поддержка (Heavy Support)
codex-slot-transport = Транспорт

## Ошибки ростера: по сообщению на каждый код RosterProblem (правила A1-A7)

codex-roster-over_points = Армия стоит { $points } { $points ->
        [one] очко
        [few] очка
       *[many] очков
    }, на { $over } больше лимита в { $limit } (A1).
codex-roster-too_few = Слишком мало: { $slot } — { $count }, нужно не меньше { $minimum } (A2).
codex-roster-too_many = Слишком много: { $slot } — { $count } при максимуме { $maximum }; обмен требует { $needed } { $needed ->
        [one] свободный слот
        [few] свободных слота
       *[many] свободных слотов
    }, а свободно { $spare } (A3).
codex-roster-unknown_sheet = В кодексе нет отряда «{ $sheet }» (A6).
codex-roster-wrong_faction = «{ $sheet }» — из другого кодекса ({ $faction }); армия набирается из одного (A6).
codex-roster-transport_without_unit = «{ $sheet }» — транспорт: он придаётся отряду и отдельно не берётся (A4).
codex-roster-too_many_options = «{ $sheet }»: опций выбрано { $count }; можно не больше двух, каждую один раз (A5).
codex-roster-unknown_option = У «{ $sheet }» нет опции «{ $option }» (A5).
# $options — названия опций, каждое в кавычках (codex-quoted), через запятую.
codex-roster-duplicate_option = «{ $sheet }»: опция { $options } выбрана дважды (A5).
codex-roster-not_a_transport = «{ $sheet }» — не транспорт (A4).
codex-roster-cannot_carry = «{ $transport }» не может перевозить «{ $sheet }» (A4, H1).

## Текстовый список армии: что не так в строке, которую не прочитать

# $reason — одно из сообщений ниже.
codex-list-line = Строка { $line } («{ $text }»): { $reason }
codex-list-no_units = В списке нет ни одного отряда.
# $hint — codex-list-hint или codex-list-no_hint.
codex-list-unknown_unit = не знаю отряда «{ $name }»{ $hint }
codex-list-unknown_option = у «{ $unit }» нет опции «{ $option }»{ $hint }
codex-list-several_transports = у отряда может быть только один транспорт (A4).
codex-list-bad_points = очки пишутся в квадратных скобках в конце: [90].
codex-list-points_mismatch = указано { $shown } { $shown ->
        [one] очко
        [few] очка
       *[many] очков
    }, а по кодексу { $actual }.
codex-list-total_mismatch = указано { $shown } { $shown ->
        [one] очко
        [few] очка
       *[many] очков
    } всего, а отряды стоят { $actual }.
codex-list-unknown_faction = не понимаю, какой это кодекс: начните список с названия фракции (например, «{ $example }, 750 очк.»).
# $factions — названия фракций через запятую.
codex-list-ambiguous_unit = «{ $name }» есть в нескольких кодексах ({ $factions }): начните список с названия фракции.
codex-list-empty_name = пустое имя отряда или опции.
codex-list-hint = ; может быть, «{ $suggestion }»?
codex-list-no_hint = .

## Слова самого формата списка при выгрузке: парсер читает их обратно (и другие написания)

codex-format-points = очк.
codex-format-total = Итого
