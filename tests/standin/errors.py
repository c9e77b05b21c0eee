"""The stand-in's error answer, in Discord's shape."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An error answer in Discord's shape: HTTP status plus a JSON code and message."""

    def __init__(
        self, status: int, code: int, message: str, *, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message} {errors or ''}".rstrip())
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors  # 50035's tree of field problems

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body
