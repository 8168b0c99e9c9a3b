"""The reading-list pages' forms: each POST changes one thing through the service and answers 303
back to the list (post/redirect/get), so the pages work without script; a refusal (a limit, a
note too long, an unknown paper) is an error page with the status the API would send. The
same-origin check (web/csrf.py) runs before any of these."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from ..service import ServiceError
from ..service import list_import as li
from ..service import lists as sl
from ..service.paths import list_path
from . import i18n
from .error_page import error_page
from .limits import MAX_IMPORT_BYTES

Form = dict[str, Any]


def _back(request: Request, path: str, anchor: str = "") -> Response:
    return RedirectResponse(i18n.prefix(request.state.lang) + path + anchor, status_code=303)


async def _form(request: Request) -> Form:
    out: Form = {}
    async with request.form(max_files=1, max_fields=20, max_part_size=MAX_IMPORT_BYTES) as form:
        for k, v in form.multi_items():
            if isinstance(v, UploadFile):
                out[k] = (await v.read(MAX_IMPORT_BYTES + 1)).decode("utf-8-sig", errors="replace")
            else:
                out[k] = v
    return out


def _handler(act: Callable[[Request, Form], str]) -> Callable[[Request], Awaitable[Response]]:
    """A form route: read the form, run ``act`` in a thread (it writes), go back where it says."""
    async def handler(request: Request) -> Response:
        try:
            form = await _form(request)
            target = await anyio.to_thread.run_sync(act, request, form)
        except ServiceError as e:
            return error_page(request, e)
        return _back(request, target)
    return handler


def _p(request: Request, name: str) -> str:
    return str(request.path_params[name])


def _new_shelf(request: Request, form: Form) -> str:
    shelf = sl.create_shelf(request.app.state.home, _default_name(request))
    return shelf["lists"][0]["href"]


def _default_name(request: Request) -> str:
    return i18n.translations(request.state.lang).gettext(sl.DEFAULT_NAME)


def _new_list(request: Request, form: Form) -> str:
    info = sl.create_list(request.app.state.home, _p(request, "token"), str(form.get("name", "")))
    return info["href"]


def _in_list(action: Callable[[Any, str, str, Form], Any]) -> Callable[[Request, Form], str]:
    def act(request: Request, form: Form) -> str:
        token, list_id = _p(request, "token"), _p(request, "list_id")
        action(request.app.state.home, token, list_id, form)
        return list_path(token, list_id)
    return act


def _hide_seen(request: Request, form: Form) -> str:
    token = _p(request, "token")
    sl.set_hide_seen(request.app.state.home, token, form.get("hide") == "1")
    return list_path(token)


def _delete(request: Request, form: Form) -> str:
    token = _p(request, "token")
    shelf = sl.delete_list(request.app.state.home, token, _p(request, "list_id"))
    return shelf["lists"][0]["href"] if shelf["lists"] else list_path(token)


ACTIONS: dict[str, Callable[[Any, str, str, Form], Any]] = {
    "add": lambda h, t, lid, f: sl.add_paper(h, t, lid, str(f.get("paper", "")), f.get("note") or None),
    "note": lambda h, t, lid, f: sl.set_note(h, t, lid, str(f.get("paper", "")), str(f.get("note", ""))),
    "remove": lambda h, t, lid, f: sl.remove_paper(h, t, lid, str(f.get("paper", ""))),
    "rename": lambda h, t, lid, f: sl.rename_list(h, t, lid, str(f.get("name", ""))),
    "import": lambda h, t, lid, f: li.import_file(h, t, lid, str(f.get("file") or f.get("text") or "")),
}


def form_routes() -> list[Route]:
    routes = [Route("/lists/new", _handler(_new_shelf), methods=["POST"]),
              Route("/lists/{token}/new", _handler(_new_list), methods=["POST"]),
              Route("/lists/{token}/hide-seen", _handler(_hide_seen), methods=["POST"]),
              Route("/lists/{token}/{list_id}/delete", _handler(_delete), methods=["POST"])]
    routes += [Route(f"/lists/{{token}}/{{list_id}}/{name}", _handler(_in_list(action)), methods=["POST"])
               for name, action in ACTIONS.items()]
    return routes
