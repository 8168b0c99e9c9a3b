"""What the lists store raises: an unknown token or list (404), a limit reached (409), input it
refuses (400). Messages are short English sentences (the service layer hands them on)."""

from __future__ import annotations


class ListsError(Exception):
    status = 500

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.detail = detail


class UnknownList(ListsError):
    status = 404


class ListFull(ListsError):
    status = 409


class BadListInput(ListsError):
    status = 400
