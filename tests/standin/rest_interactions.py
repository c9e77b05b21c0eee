"""REST routes for interaction answers: the callback and the webhook followups and edits."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from .contract import bad_answer_type, check_autocomplete, check_message, check_modal
from .core import Core, not_found
from .errors import ApiError
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    COMPONENT,
    DEFERRED_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    Interaction,
)
from .rest import API, json_response, no_content, read_body, snowflake
from .rest_channels import delete, kept, reopen
from .world import EPHEMERAL, Message

# The callback types Discord takes for each interaction type (Receiving and Responding):
# an autocomplete only its choices; updating the message (or deferring that) only for a
# component's interaction (or a modal sent from one); no modal in answer to a modal.
VALID_ANSWERS = {
    APPLICATION_COMMAND: (MESSAGE, DEFERRED_MESSAGE, MODAL),
    COMPONENT: (MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE, MODAL),
    AUTOCOMPLETE: (AUTOCOMPLETE_RESULT,),
    MODAL_SUBMIT: (MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE),
}


def interaction_routes(core: Core) -> list[web.RouteDef]:
    def by_token(request: web.Request) -> Interaction:
        interaction = core.interactions.get(request.match_info["token"])
        if interaction is None:
            raise not_found("interaction", 10062)
        return interaction

    def webhook(request: web.Request) -> Interaction:
        if snowflake(request, "app") != core.application_id:
            raise not_found("Webhook", 10015)
        interaction = by_token(request)
        if not interaction.responses:
            # Discord refuses followups before the interaction was acknowledged.
            raise not_found("Webhook", 10015)
        contract = core.contract
        if contract.on("followup_window") and _age(interaction) > contract.token_seconds:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        return interaction

    def target(interaction: Interaction, which: str) -> Message:
        if which == "@original":
            if interaction.original is None:
                raise not_found("Message", 10008)
            return interaction.original
        for message in [interaction.original, *interaction.followups]:
            if message is not None and str(message.id) == which:
                return message
        raise not_found("Message", 10008)

    async def callback(request: web.Request) -> web.Response:
        interaction = by_token(request)
        if snowflake(request, "id") != interaction.id:
            raise not_found("interaction", 10062)
        contract = core.contract
        # Judged once the whole request is in: an answer still uploading when another
        # arrives is not yet an answer, and only one of them may be.
        body, files = await read_body(request)
        if contract.on("response_window") and _age(interaction) > contract.response_seconds:
            # Three seconds after the interaction its token is gone for the first answer.
            # Answered or not: Discord does not say which of the two refusals a late second
            # answer gets, and this one leaves the client no doubt that it was not made.
            raise not_found("interaction", 10062)
        if interaction.responses and contract.on("one_response"):
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        kind = int(body["type"])
        data = body.get("data") or {}
        if kind not in VALID_ANSWERS.get(interaction.type, ()):
            raise bad_answer_type()
        if kind == MESSAGE:
            check_message(contract, data, files)
            if not int(data.get("flags") or 0) & EPHEMERAL:
                reopen(core, core.world.channels[interaction.channel_id])
        elif kind == UPDATE_MESSAGE and interaction.message_id is not None:
            before = core.world.message_index[interaction.message_id]
            check_message(contract, data, files, kept=kept(before, data), before=before)
        elif kind == AUTOCOMPLETE_RESULT:
            check_autocomplete(contract, data)
        elif kind == MODAL:
            check_modal(contract, data)
        interaction.responses.append({"type": kind, "data": data})
        interaction.responded_at = time.perf_counter()
        if kind == MESSAGE:
            interaction.original = answer_message(core, interaction, data, files)
        elif kind == UPDATE_MESSAGE and interaction.message_id is not None:
            message = core.world.message_index[interaction.message_id]
            core.edit_message(message, data, files)
            interaction.original = message
        elif kind == MODAL:
            core.modals[str(data["custom_id"])] = data
        interaction.touch()
        core.notify()
        return json_response(_callback_answer(core, interaction, kind, data))

    async def followup(request: web.Request) -> web.Response:
        interaction = webhook(request)
        body, files = await read_body(request)
        check_message(core.contract, body, files)
        if _resolves_deferral(interaction):
            # Discord takes the first followup after a deferral as the deferral's answer: it
            # replaces the "thinking" message, keeps the deferral's visibility whatever the
            # followup's flags say, and (an edit) notifies nobody.
            message = answer_message(
                core, interaction, {**body, "flags": _flags(interaction)}, files
            )
            message.notifies = False
            interaction.original = message
        else:
            message = answer_message(core, interaction, body, files)
        interaction.followups.append(message)
        interaction.touch()
        if request.query.get("wait", "").lower() in ("1", "true"):
            return json_response(core.message_payload(message))
        return no_content()

    async def get_message(request: web.Request) -> web.Response:
        interaction = webhook(request)
        return json_response(core.message_payload(target(interaction, request.match_info["m"])))

    async def edit_message(request: web.Request) -> web.Response:
        interaction = webhook(request)
        which = request.match_info["m"]
        body, files = await read_body(request)
        if which == "@original" and interaction.original is None:
            check_message(core.contract, body, files)
            interaction.original = original_from_edit(core, interaction, body, files)
        else:
            before = target(interaction, which)
            check_message(core.contract, body, files, kept=kept(before, body), before=before)
            core.edit_message(before, body, files)
        interaction.touch()
        return json_response(core.message_payload(target(interaction, which)))

    async def delete_message(request: web.Request) -> web.Response:
        interaction = webhook(request)
        message = target(interaction, request.match_info["m"])
        delete(core, message)
        interaction.touch()
        return no_content()

    hook = f"{API}/webhooks/{{app}}/{{token}}"
    return [
        web.post(f"{API}/interactions/{{id}}/{{token}}/callback", callback),
        web.post(hook, followup),
        web.get(f"{hook}/messages/{{m}}", get_message),
        web.patch(f"{hook}/messages/{{m}}", edit_message),
        web.delete(f"{hook}/messages/{{m}}", delete_message),
    ]


def answer_message(
    core: Core, interaction: Interaction, body: dict[str, Any], files: list[Any]
) -> Message:
    return core.new_message(
        interaction.channel_id,
        core.bot_user_id,
        body,
        files,
        interaction_id=interaction.id,
        webhook_id=core.application_id,
    )


def original_from_edit(
    core: Core, interaction: Interaction, body: dict[str, Any], files: list[Any]
) -> Message:
    """Editing @original after a defer: the deferred ("thinking") message takes its content;
    after a deferred update, the component's message is the original."""
    kind = interaction.responses[0]["type"] if interaction.responses else None
    if kind == DEFERRED_UPDATE and interaction.message_id is not None:
        message = core.world.message_index[interaction.message_id]
        core.edit_message(message, body, files)
        return message
    if kind != DEFERRED_MESSAGE:
        raise not_found("Message", 10008)
    message = answer_message(core, interaction, {**body, "flags": _flags(interaction)}, files)
    message.notifies = False  # an edit of the loading message
    message.edited_at = time.perf_counter()
    message.edited_wall_time = time.time()
    return message


def _resolves_deferral(interaction: Interaction) -> bool:
    """Whether a message now would resolve the interaction's "thinking" deferral."""
    kind = interaction.responses[0]["type"] if interaction.responses else None
    return kind == DEFERRED_MESSAGE and interaction.original is None


def _flags(interaction: Interaction) -> int:
    """The flags of the interaction's first response (a deferral's: its visibility)."""
    return int((interaction.responses[0]["data"] or {}).get("flags") or 0)


def _callback_answer(
    core: Core, interaction: Interaction, kind: int, data: dict[str, Any]
) -> dict[str, Any]:
    """The ``with_response=1`` body: the interaction and the resource the callback made."""
    answer: dict[str, Any] = {
        "interaction": {
            "id": str(interaction.id),
            "type": interaction.type,
            "response_message_loading": kind == DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
        },
        "resource": {"type": kind},
    }
    if interaction.original is not None and kind in (MESSAGE, UPDATE_MESSAGE):
        answer["interaction"]["response_message_id"] = str(interaction.original.id)
        answer["resource"]["message"] = core.message_payload(interaction.original)
    return answer


def _age(interaction: Interaction) -> float:
    """Seconds since the interaction went out (0 while it is being written)."""
    if not interaction.dispatched_at:
        return 0.0
    return time.perf_counter() - interaction.dispatched_at
