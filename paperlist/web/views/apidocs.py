"""The API reference page (/api): the OpenAPI document read into endpoints, parameters, response
models and problem types, plus how to run the MCP server.

A page of our own rather than Swagger UI or ReDoc: those need scripts from a CDN or inline, which
the site's Content-Security-Policy forbids, and this page works without JavaScript, in both
languages, like the rest of the site. The endpoint and field descriptions are the OpenAPI
document's (English); the page's own words are translated.
"""

from __future__ import annotations

from typing import Any

import orjson

from ..problems import PROBLEMS
from .base import Ctx

# A request worth trying for each endpoint (paths as in the OpenAPI document).
EXAMPLES = {
    "/api/v1/search": "/api/v1/search?q=kv+cache+compression&venue=neurips&year_from=2023&per_page=5",
    "/api/v1/papers/{ref}": "/api/v1/papers/neurips2017-3ucnf4la",
    "/api/v1/authors/{key}": "/api/v1/authors/yoshua-bengio",
    "/api/v1/conferences": "/api/v1/conferences",
    "/api/v1/conferences/{venue}": "/api/v1/conferences/iclr",
    "/api/v1/conferences/{venue}/{year}": "/api/v1/conferences/iclr/2024?status=oral&per_page=50",
    "/api/v1/stats": "/api/v1/stats",
    "/api/v1/coverage": "/api/v1/coverage?venue=acl",
    "/api/v1": "/api/v1",
}
EXPORT_EXAMPLES = [
    "/api/v1/search?q=diffusion&venue=iclr&year=2024&format=bib",
    "/api/v1/conferences/neurips/2024?status=oral&format=csv",
    "/api/v1/authors/yoshua-bengio?format=jsonl",
    "/api/v1/search?q=%22kv+cache%22&sort=newest&format=atom",
]
MCP_CONFIG = {"mcpServers": {"paperlist": {"command": "paperlist",
                                           "args": ["--home", "/path/to/data", "mcp"]}}}


def code_spans(text: str) -> list[dict[str, Any]]:
    """Markdown-ish text split at backticks: ``[{"text": ..., "code": bool}]`` (the template
    escapes every part and wraps the code ones in <code>)."""
    return [{"text": part, "code": i % 2 == 1} for i, part in enumerate(text.split("`")) if part]


def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def type_label(schema: dict[str, Any]) -> str:
    """A short, readable type of a JSON Schema: ``integer (1–100)``, ``array of PaperSummary``,
    ``string | null``, ``one of: relevance, newest``."""
    if "$ref" in schema:
        return _ref_name(schema["$ref"])
    if "anyOf" in schema:
        parts = [type_label(s) for s in schema["anyOf"]]
        return " | ".join(dict.fromkeys(parts))
    if "enum" in schema:
        return "one of: " + ", ".join(str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    t = schema.get("type", "any")
    if t == "array":
        label = "array of " + type_label(schema.get("items", {}))
        return label + (f" (≤ {schema['maxItems']})" if "maxItems" in schema else "")
    if (t == "object" and "additionalProperties" in schema
            and isinstance(schema["additionalProperties"], dict)):
        return "object of " + type_label(schema["additionalProperties"])
    lo, hi = schema.get("minimum"), schema.get("maximum")
    if lo is not None or hi is not None:
        return f"{t} ({'' if lo is None else lo}–{'' if hi is None else hi})"
    if "maxLength" in schema:
        return f"{t} (≤ {schema['maxLength']} chars)"
    if "pattern" in schema:
        return f"{t} ({schema['pattern']})"
    return str(t)


def _parameters(op: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for p in op.get("parameters", []):
        schema = p.get("schema", {})
        default = schema.get("default")
        out.append({"name": p["name"], "in": p["in"], "required": bool(p.get("required")),
                    "type": type_label(schema),
                    "default": "" if default in (None, [], "") else orjson.dumps(default).decode(),
                    "description": code_spans(p.get("description") or schema.get("description") or "")})
    return out


def _responses(op: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for status, r in sorted(op.get("responses", {}).items()):
        content = r.get("content") or {}
        models = sorted({_ref_name(c["schema"]["$ref"]) for c in content.values()
                         if "$ref" in c.get("schema", {})})
        out.append({"status": status, "description": code_spans(r.get("description", "")),
                    "types": list(content), "models": models})
    return out


def build_api_docs(ctx: Ctx, openapi: dict[str, Any]) -> dict[str, Any]:
    """The reference page's data, from the OpenAPI document."""
    from ...mcp import TOOL_NAMES  # here, not at import: the MCP SDK is only needed by this page
    endpoints = []
    for path, ops in openapi.get("paths", {}).items():
        for method, op in ops.items():
            endpoints.append({
                "method": method.upper(), "path": path, "anchor": op.get("operationId", path),
                "summary": op.get("summary", ""), "description": code_spans(op.get("description", "")),
                "tag": (op.get("tags") or ["other"])[0], "parameters": _parameters(op),
                "responses": _responses(op), "example": EXAMPLES.get(path)})
    tag_order = {t["name"]: i for i, t in enumerate(openapi.get("tags", []))}
    endpoints.sort(key=lambda e: (tag_order.get(e["tag"], 99), e["path"]))
    models = []
    for name, schema in sorted(openapi.get("components", {}).get("schemas", {}).items()):
        required = set(schema.get("required", []))
        models.append({"name": name, "description": schema.get("description", ""),
                       "fields": [{"name": f, "type": type_label(s), "required": f in required,
                                   "description": code_spans(s.get("description", ""))}
                                  for f, s in schema.get("properties", {}).items()]})
    problems = [{"kind": k, "anchor": f"problem-{k}", "status": st, "title": t, "description": code_spans(d)}
                for k, (st, t, d) in PROBLEMS.items()]
    return {"page": "api", "title": openapi.get("info", {}).get("title", "API"),
            "version": openapi.get("info", {}).get("version", ""), "endpoints": endpoints, "models": models,
            "problems": problems, "openapi_href": "/openapi.json", "export_examples": EXPORT_EXAMPLES,
            "mcp_config": orjson.dumps(MCP_CONFIG, option=orjson.OPT_INDENT_2).decode(),
            "mcp_tools": list(TOOL_NAMES)}
