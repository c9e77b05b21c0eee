"""Discord's documented limits and semantics, as the stand-in enforces them.

Each rule is on by default; a test switches one off (``standin.contract.relax("content")``)
to show what the bot does where Discord would refuse. A refusal is an ``ApiError`` in
Discord's own shape: 400 with code 50035 "Invalid Form Body" and an ``errors`` tree naming
the field (``{"embeds": {"0": {"title": {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
"message": "Must be 256 or fewer in length."}]}}}}``), 50006 for an empty message, 413/40005
for attachments over the upload limit, 40060/10062/50027 for interaction answers that come
twice, too late, or after the token expired.

Sources: Discord's developer documentation (Message Resource, Embed Limits, Message
Components, Application Commands, Receiving and Responding, Threads, Channel Resource,
Opcodes and Status Codes, Rate Limits).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ApiError

RULES = (
    "empty_message",  # no content, embeds, components or files: 50006
    "content",  # content at most 2000 characters
    "embeds",  # 10 embeds; title 256, description 4096, 25 fields (name 256, value 1024),
    # footer 2048, author 256; 6000 characters over all embeds of a message
    "components",  # 5 rows, 5 buttons a row, one select a row, custom_id 100, label 80,
    # select options 25 (label and value 100)
    "attachments",  # 10 files, 10 MiB in all (413, 40005)
    "allowed_mentions",  # parse and a list of the same kind exclude each other; 100 ids
    "autocomplete",  # 25 choices, name 1-100, value at most 100 characters
    "commands",  # names ^[-_\p{L}\p{N}]{1,32}$ lowercase, descriptions 1-100, 25 options,
    # 25 choices, localizations held to the same
    "forum_tags",  # tag names 1-20, at most 20 tags on a forum
    "thread_name",  # thread and forum post names 1-100
    "auto_archive",  # auto_archive_duration one of 60, 1440, 4320, 10080
    "modal",  # title 45, custom_id 100, 1-5 rows; text input label 45, value and
    # max_length 4000, placeholder 100
    "one_response",  # one initial response per interaction (40060)
    "response_window",  # the initial response within 3 s of the interaction (10062)
    "followup_window",  # followups and edits only while the token lives, 15 min (50027)
)

MESSAGE_CONTENT = 2000
EMBEDS = 10
EMBED_TOTAL = 6000
EMBED_FIELDS = 25
ROWS = 5
ROW_BUTTONS = 5
CUSTOM_ID = 100
BUTTON_LABEL = 80
SELECT_OPTIONS = 25
FILES = 10
UPLOAD_BYTES = 10 * 1024 * 1024
CHOICES = 25
CHOICE_NAME = 100
CHOICE_VALUE = 100
COMMAND_DESCRIPTION = 100
COMMAND_OPTIONS = 25
FORUM_TAG_NAME = 20
FORUM_TAGS = 20
THREAD_NAME = 100
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
MODAL_TITLE = 45
INPUT_LABEL = 45
INPUT_VALUE = 4000
PLACEHOLDER = 100
MENTION_IDS = 100

BUTTON, SELECT, TEXT_INPUT, ROW = 2, 3, 4, 1
SELECTS = (3, 5, 6, 7, 8)


@dataclass
class Contract:
    """Which of Discord's rules the stand-in enforces now, and its clocks."""

    relaxed: set[str] = field(default_factory=set)
    response_seconds: float = 3.0  # the initial response's window
    token_seconds: float = 15 * 60.0  # an interaction token's life

    def on(self, rule: str) -> bool:
        assert rule in RULES, f"no rule {rule!r}"
        return rule not in self.relaxed

    def relax(self, *rules: str) -> None:
        """Switch rules off (this test shows what the bot does without them)."""
        for rule in rules:
            assert rule in RULES, f"no rule {rule!r}"
        self.relaxed.update(rules)

    def enforce(self, *rules: str) -> None:
        self.relaxed.difference_update(rules)


# -- the error shape ----------------------------------------------------------------------
Problems = dict[str, Any]


def _error(code: str, message: str) -> Problems:
    return {"_errors": [{"code": code, "message": message}]}


def too_long(limit: int) -> Problems:
    return _error("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def bad_length(low: int, high: int) -> Problems:
    return _error("BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")


def _nest(problems: Problems, path: Sequence[str | int], leaf: Problems) -> None:
    node = problems
    for key in path:
        node = node.setdefault(str(key), {})
    node.setdefault("_errors", []).extend(leaf["_errors"])


def invalid_form(problems: Problems) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors=problems)


def bad_answer_type() -> ApiError:
    """A callback type the interaction's type does not take (an autocomplete answered with
    a message, a slash command with an update of a message it has not)."""
    problem = _error("INTERACTION_RESPONSE_TYPE_INVALID", "Invalid interaction response type")
    return invalid_form({"type": problem})


def raise_if(problems: Problems) -> None:
    if problems:
        raise invalid_form(problems)


def _length(
    problems: Problems, path: Sequence[str | int], value: Any, high: int, low: int = 0
) -> None:
    size = len(value) if isinstance(value, str | list) else 0
    if size > high or size < low:
        _nest(problems, path, bad_length(low, high) if low else too_long(high))


# -- messages -------------------------------------------------------------------------------
def check_message(
    contract: Contract,
    body: dict[str, Any],
    files: Sequence[Any],
    *,
    kept: Sequence[Any] = (),
    before: Any = None,
) -> None:
    """A message body to create (``before`` None) or to apply to ``before`` (an edit;
    ``kept`` the attachments it keeps)."""
    problems: Problems = {}
    if contract.on("content"):
        _length(problems, ["content"], body.get("content") or "", MESSAGE_CONTENT)
    if contract.on("embeds"):
        _check_embeds(problems, list(body.get("embeds") or []))
    if contract.on("components"):
        _check_rows(problems, list(body.get("components") or []))
    if contract.on("allowed_mentions") and body.get("allowed_mentions"):
        _check_allowed(problems, body["allowed_mentions"])
    if contract.on("attachments"):
        if len(files) + len(kept) > FILES:
            _nest(problems, ["files"], too_long(FILES))
        if sum(len(f.data) for f in files) > UPLOAD_BYTES:
            raise ApiError(413, 40005, "Request entity too large")
    raise_if(problems)
    if contract.on("empty_message") and is_empty(body, files, kept, before):
        raise ApiError(400, 50006, "Cannot send an empty message")


def is_empty(body: dict[str, Any], files: Sequence[Any], kept: Sequence[Any], before: Any) -> bool:
    def now(key: str, old: Any) -> Any:
        return body.get(key, old)

    content = now("content", getattr(before, "content", ""))
    embeds = now("embeds", getattr(before, "embeds", []))
    components = now("components", getattr(before, "components", []))
    attachments = list(files) + (
        list(kept) if "attachments" in body else list(getattr(before, "attachments", []))
    )
    return not (content or embeds or components or attachments or body.get("sticker_ids"))


def _check_embeds(problems: Problems, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > EMBEDS:
        _nest(problems, ["embeds"], too_long(EMBEDS))
    total = 0
    for i, embed in enumerate(embeds):
        where: list[str | int] = ["embeds", i]
        _length(problems, [*where, "title"], embed.get("title") or "", 256)
        _length(problems, [*where, "description"], embed.get("description") or "", 4096)
        fields = list(embed.get("fields") or [])
        _length(problems, [*where, "fields"], fields, EMBED_FIELDS)
        for j, item in enumerate(fields):
            _length(problems, [*where, "fields", j, "name"], item.get("name") or "", 256, 1)
            _length(problems, [*where, "fields", j, "value"], item.get("value") or "", 1024, 1)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        _length(problems, [*where, "footer", "text"], footer, 2048)
        _length(problems, [*where, "author", "name"], author, 256)
        total += sum(
            len(t)
            for t in (
                embed.get("title") or "",
                embed.get("description") or "",
                footer,
                author,
                *(str(f.get("name") or "") + str(f.get("value") or "") for f in fields),
            )
        )
    if total > EMBED_TOTAL:
        _nest(
            problems,
            ["embeds"],
            _error("MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}"),
        )


def _check_rows(problems: Problems, rows: list[dict[str, Any]]) -> None:
    _length(problems, ["components"], rows, ROWS)
    for i, row in enumerate(rows):
        where: list[str | int] = ["components", i]
        if row.get("type") != ROW:
            continue  # components v2 layouts: not used by the bot, not checked here
        items = list(row.get("components") or [])
        kinds = [int(c.get("type", 0)) for c in items]
        if any(k in SELECTS for k in kinds) and len(items) > 1:
            _nest(
                problems,
                [*where, "components"],
                _error(
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                ),
            )
        _length(problems, [*where, "components"], items, ROW_BUTTONS, 1)
        for j, item in enumerate(items):
            _check_component(problems, [*where, "components", j], item)


def _check_component(problems: Problems, where: list[str | int], item: dict[str, Any]) -> None:
    if "custom_id" in item:
        _length(problems, [*where, "custom_id"], item["custom_id"] or "", CUSTOM_ID, 1)
    kind = int(item.get("type", 0))
    if kind == BUTTON:
        _length(problems, [*where, "label"], item.get("label") or "", BUTTON_LABEL)
    elif kind == SELECT:
        options = list(item.get("options") or [])
        _length(problems, [*where, "options"], options, SELECT_OPTIONS, 1)
        for k, option in enumerate(options):
            _length(problems, [*where, "options", k, "label"], option.get("label") or "", 100, 1)
            _length(problems, [*where, "options", k, "value"], option.get("value") or "", 100, 1)
        _length(problems, [*where, "placeholder"], item.get("placeholder") or "", 150)


def _check_allowed(problems: Problems, allowed: dict[str, Any]) -> None:
    parse = list(allowed.get("parse") or [])
    for kind in ("users", "roles"):
        listed = allowed.get(kind)
        if listed and kind in parse:
            _nest(
                problems,
                ["allowed_mentions"],
                _error(
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
                ),
            )
        _length(problems, ["allowed_mentions", kind], list(listed or []), MENTION_IDS)


def pinged(
    content: str, allowed: dict[str, Any] | None, replied_author: int | None = None
) -> set[int]:
    """Who a message notifies, as Discord decides it: the users mentioned in the content
    that ``allowed_mentions`` lets through (all of them without it), and the replied-to
    author only when ``replied_user`` says so."""
    named = {int(u) for u in re.findall(r"<@!?(\d+)>", content)}
    if allowed is None:
        return named | ({replied_author} if replied_author is not None else set())
    if "users" in (allowed.get("parse") or []):
        users = named
    else:
        users = named & {int(u) for u in allowed.get("users") or []}
    if replied_author is not None and allowed.get("replied_user"):
        users.add(replied_author)
    return users


# -- interactions -------------------------------------------------------------------------
def check_autocomplete(contract: Contract, data: dict[str, Any]) -> None:
    if not contract.on("autocomplete"):
        return
    problems: Problems = {}
    choices = list(data.get("choices") or [])
    _length(problems, ["data", "choices"], choices, CHOICES)
    for i, choice in enumerate(choices):
        _check_choice(problems, ["data", "choices", i], choice)
    raise_if(problems)


def _check_choice(problems: Problems, where: list[str | int], choice: dict[str, Any]) -> None:
    _length(problems, [*where, "name"], choice.get("name") or "", CHOICE_NAME, 1)
    for locale, name in (choice.get("name_localizations") or {}).items():
        _length(problems, [*where, "name_localizations", locale], name or "", CHOICE_NAME, 1)
    if isinstance(choice.get("value"), str):
        _length(problems, [*where, "value"], choice["value"], CHOICE_VALUE)


def check_modal(contract: Contract, data: dict[str, Any]) -> None:
    if not contract.on("modal"):
        return
    problems: Problems = {}
    _length(problems, ["data", "title"], data.get("title") or "", MODAL_TITLE, 1)
    _length(problems, ["data", "custom_id"], data.get("custom_id") or "", CUSTOM_ID, 1)
    rows = list(data.get("components") or [])
    _length(problems, ["data", "components"], rows, 5, 1)
    for i, row in enumerate(rows):
        inner = row.get("components") or ([row["component"]] if row.get("component") else [])
        if row.get("type") == 18:  # a label wraps its input: the label is the row's own
            _length(
                problems, ["data", "components", i, "label"], row.get("label") or "", INPUT_LABEL, 1
            )
        for j, item in enumerate(inner):
            where: list[str | int] = ["data", "components", i, "components", j]
            if int(item.get("type", 0)) != TEXT_INPUT:
                continue
            if "label" in item:
                _length(problems, [*where, "label"], item["label"] or "", INPUT_LABEL, 1)
            _length(problems, [*where, "custom_id"], item.get("custom_id") or "", CUSTOM_ID, 1)
            _length(problems, [*where, "value"], item.get("value") or "", INPUT_VALUE)
            _length(problems, [*where, "placeholder"], item.get("placeholder") or "", PLACEHOLDER)
            top = item.get("max_length")
            if top is not None and not 1 <= int(top) <= INPUT_VALUE:
                _nest(problems, [*where, "max_length"], bad_length(1, INPUT_VALUE))
    raise_if(problems)


# -- commands -------------------------------------------------------------------------------
def command_problems(commands: Sequence[dict[str, Any]]) -> Problems:
    """What Discord would refuse in a bulk overwrite of these commands (empty: nothing)."""
    problems: Problems = {}
    if len(commands) > 100:
        _nest(problems, [], too_long(100))
    for i, command in enumerate(commands):
        kind = int(command.get("type") or 1)
        _check_named(problems, [i], command, chat=kind == 1)
        _check_options(problems, [i], list(command.get("options") or []), depth=0)
    return problems


def check_commands(contract: Contract, commands: Sequence[dict[str, Any]]) -> None:
    if contract.on("commands"):
        raise_if(command_problems(commands))


def valid_name(name: str) -> bool:
    """A CHAT_INPUT command or option name: 1-32 of letters, digits, "-" and "_", in
    lowercase where the letter has a lowercase form."""
    return (
        1 <= len(name) <= 32
        and all(c in "-_" or unicodedata.category(c)[0] in "LN" for c in name)
        and name == name.lower()
    )


def _check_named(
    problems: Problems, where: list[str | int], spec: dict[str, Any], *, chat: bool = True
) -> None:
    names = {"name": spec.get("name") or ""}
    names |= {
        f"name_localizations.{k}": v for k, v in (spec.get("name_localizations") or {}).items()
    }
    for key, name in names.items():
        path = [*where, *key.split(".")]
        if not 1 <= len(name) <= 32:
            _nest(problems, path, bad_length(1, 32))
        elif chat and not valid_name(name):
            _nest(
                problems,
                path,
                _error("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"),
            )
    if not chat:
        return
    texts = {"description": spec.get("description") or ""}
    texts |= {
        f"description_localizations.{k}": v
        for k, v in (spec.get("description_localizations") or {}).items()
    }
    for key, text in texts.items():
        _length(problems, [*where, *key.split(".")], text, COMMAND_DESCRIPTION, 1)


def _check_options(
    problems: Problems, where: list[str | int], options: list[dict[str, Any]], depth: int
) -> None:
    _length(problems, [*where, "options"], options, COMMAND_OPTIONS)
    seen_optional = False
    for j, option in enumerate(options):
        path: list[str | int] = [*where, "options", j]
        _check_named(problems, path, option)
        kind = int(option.get("type") or 0)
        if kind in (1, 2):
            if depth >= 2 or (kind == 2 and depth >= 1):
                _nest(
                    problems,
                    [*path, "type"],
                    _error(
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Sub-command groups nest one level",
                    ),
                )
            _check_options(problems, path, list(option.get("options") or []), depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                _nest(
                    problems,
                    [*path, "required"],
                    _error(
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    ),
                )
        else:
            seen_optional = True
        choices = list(option.get("choices") or [])
        _length(problems, [*path, "choices"], choices, CHOICES)
        for k, choice in enumerate(choices):
            _check_choice(problems, [*path, "choices", k], choice)


# -- channels -------------------------------------------------------------------------------
def check_thread(contract: Contract, body: dict[str, Any], *, creating: bool) -> None:
    problems: Problems = {}
    if contract.on("thread_name") and ("name" in body or creating):
        _length(problems, ["name"], str(body.get("name") or ""), THREAD_NAME, 1)
    duration = body.get("auto_archive_duration")
    if (
        contract.on("auto_archive")
        and duration is not None
        and int(duration) not in ARCHIVE_DURATIONS
    ):
        _nest(
            problems,
            ["auto_archive_duration"],
            _error("BASE_TYPE_CHOICES", f"Value must be one of {set(ARCHIVE_DURATIONS)}."),
        )
    raise_if(problems)


def check_forum_tags(contract: Contract, tags: Iterable[dict[str, Any]]) -> None:
    if not contract.on("forum_tags"):
        return
    problems: Problems = {}
    listed = list(tags)
    _length(problems, ["available_tags"], listed, FORUM_TAGS)
    for i, tag in enumerate(listed):
        _length(
            problems, ["available_tags", i, "name"], str(tag.get("name") or ""), FORUM_TAG_NAME, 1
        )
    raise_if(problems)
