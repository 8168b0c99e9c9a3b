"""How `paperlist update` talks to a service: politely, within a budget, and honestly.

The maintained clients (openreview-py, pyalex) speak HTTP through a ``requests.Session``. We give
each session one adapter of ours instead of the client's own retry set-up:

* a request budget per run: the request that would pass it raises ``BudgetSpent`` (the run stops
  cleanly with what it has; the next run goes on);
* a rate limit: at least ``min_interval`` seconds between requests to one service;
* retries of 429, 500, 502, 503 and 504 with exponential backoff, honouring ``Retry-After``, but
  never sleeping longer than ``max_wait`` for it: a service that asks for more is reported as
  busy (``Unreachable``) rather than holding the run for an hour;
* every failure to reach the service (refused, DNS, timeout, retries used up) is one
  ``Unreachable`` whose message is one line.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

RETRY_STATUSES = (429, 500, 502, 503, 504)


class UpdateError(Exception):
    """A source could not be updated; the message is one line for the user."""


class Unreachable(UpdateError):
    """The service did not answer usefully (no network, refused, busy, failing)."""


class BudgetSpent(UpdateError):
    """The run's request budget for a service is used up."""


@dataclass(slots=True)
class Policy:
    """How hard one service may be asked."""

    budget: int = 2000  # requests per run (retries count)
    min_interval: float = 0.2  # seconds between requests (5 per second)
    retries: int = 4  # per request
    backoff: float = 1.0  # seconds; doubled per retry
    max_wait: float = 120.0  # the longest Retry-After we wait for
    timeout: float = 60.0  # per request


@dataclass(slots=True)
class Meter:
    """What a run asked of one service."""

    requests: int = 0
    retries: int = 0
    waited: float = 0.0
    _last: float = field(default=0.0, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class _CappedRetry(Retry):
    """urllib3's Retry that counts into the meter and refuses a Retry-After longer than the cap."""

    meter: Meter | None = None
    max_wait: float = 120.0

    def new(self, **kw: Any) -> _CappedRetry:
        r = super().new(**kw)
        r.meter, r.max_wait = self.meter, self.max_wait
        return r

    def increment(self, *a: Any, **kw: Any) -> _CappedRetry:
        if self.meter is not None:
            self.meter.retries += 1
            self.meter.requests += 1
        return super().increment(*a, **kw)

    def get_retry_after(self, response: Any) -> float | None:
        after = super().get_retry_after(response)
        if after is not None and after > self.max_wait:
            raise Unreachable(
                f"the service asks us to wait {after:.0f} s (Retry-After), more than the "
                f"{self.max_wait:.0f} s we wait; run again later"
            )
        return after

    def sleep_for_retry(self, response: Any = None) -> bool:
        t0 = time.monotonic()
        slept = bool(super().sleep_for_retry(response))
        if self.meter is not None:
            self.meter.waited += time.monotonic() - t0
        return slept


class PoliteAdapter(HTTPAdapter):
    """An HTTPAdapter with the policy's budget, rate limit and retries."""

    def __init__(self, policy: Policy, meter: Meter) -> None:
        retry = _CappedRetry(
            total=policy.retries,
            connect=1,
            read=1,
            backoff_factor=policy.backoff,
            backoff_max=policy.max_wait,
            status_forcelist=RETRY_STATUSES,
            allowed_methods=frozenset({"GET", "HEAD"}),
            respect_retry_after_header=True,
            raise_on_status=True,
        )
        retry.meter, retry.max_wait = meter, policy.max_wait
        super().__init__(max_retries=retry)
        self.policy, self.meter = policy, meter

    def send(self, request: requests.PreparedRequest, *args: Any, **kwargs: Any) -> requests.Response:
        with self.meter._lock:
            if self.meter.requests >= self.policy.budget:
                raise BudgetSpent(f"the request budget of this run ({self.policy.budget:,}) is spent")
            wait = self.meter._last + self.policy.min_interval - time.monotonic()
            if wait > 0:
                time.sleep(wait)
                self.meter.waited += wait
            self.meter._last = time.monotonic()
            self.meter.requests += 1
        kwargs["timeout"] = kwargs.get("timeout") or self.policy.timeout
        try:
            return super().send(request, *args, **kwargs)
        except requests.exceptions.RetryError as e:
            raise Unreachable(f"{_host(request.url)} kept failing ({_reason(e)})") from None
        except requests.exceptions.ConnectionError as e:
            raise Unreachable(f"cannot reach {_host(request.url)} ({_reason(e)})") from None
        except requests.exceptions.Timeout:
            raise Unreachable(
                f"{_host(request.url)} did not answer within {self.policy.timeout:.0f} s"
            ) from None


def mount(session: requests.Session, policy: Policy, meter: Meter) -> None:
    """Give every request of ``session`` the policy (replacing the client's own adapters)."""
    adapter = PoliteAdapter(policy, meter)
    session.adapters.clear()
    session.mount("https://", adapter)
    session.mount("http://", adapter)


def _host(url: str | None) -> str:
    from urllib.parse import urlsplit

    parts = urlsplit(url or "")
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else "the service"


def _reason(e: BaseException) -> str:
    """The innermost cause of a requests/urllib3 failure, in a few words."""
    text = str(e)
    for marker in (
        "Connection refused",
        "Name or service not known",
        "Temporary failure in name resolution",
        "No route to host",
        "Network is unreachable",
        "timed out",
        "too many 429 error responses",
        "too many 500 error responses",
        "too many 502 error responses",
        "too many 503 error responses",
        "too many 504 error responses",
        "Connection reset",
        "RemoteDisconnected",
    ):
        if marker.lower() in text.lower():
            return marker.lower()
    return text.splitlines()[0][:120] if text else type(e).__name__
