"""Plain sentences for people that read the analyses' numbers (nothing added that they do not show)."""

from __future__ import annotations

from ..rare.ledger import TOP, Ledger


def ledger_summary(led: Ledger) -> str:
    """Plain sentences that read a ledger's numbers, with nothing added that they do not show."""
    v, below, shares = led.value, led.below, led.shares
    active = [s for s in led.suppliers if s.supplies]
    opening = (
        f"In the parity-1 class of mask {led.mask}, which holds {v}, {len(led.suppliers):,} of the "
        f"{led.rare_total:,} rare heaps below {led.heaps:,} lie below {below:,}; "
        f"{len(active):,} of them supply {v} to at least one heap."
    )
    if not active:
        return opening
    say = [opening]
    top = active[0]
    even = {k: min(k, len(active)) / len(active) for k in TOP}
    say.append(
        f"The largest supplier, heap {top.heap:,} (worth {top.value}), supplies {v} to "
        f"{top.supplies:,} heaps, {shares[1]:.1%} of the supplies made below {below:,}; "
        f"the top 5 make {shares[5]:.1%}, the top 10 {shares[10]:.1%}, "
        f"the top 50 {shares[50]:.1%}."
    )
    say.append(
        f"Were the supply spread evenly over the {len(active):,} active suppliers, the top 1 would "
        f"make {even[1]:.1%} and the top 5 {even[5]:.1%}: the top 5 make "
        f"{shares[5] / even[5]:.1f} times their even share."
    )
    sole = max(led.suppliers, key=lambda s: (s.sole, -s.heap))
    which = (
        f"; heap {sole.heap:,} is that only supplier at {sole.sole:,} of them" if sole.sole else ""
    )
    say.append(
        f"Of the {led.reached:,} heaps with a move worth {v}, {led.single:,} reach it through one "
        f"rare heap alone (every such move a split with it){which}."
    )
    say.append(
        f"The rare heaps below {below:,} make {led.supplies_below:,} of all {led.supplies_all:,} "
        f"supplies of {v}; the later rare heaps make {led.supplies_all - led.supplies_below:,}."
    )
    return " ".join(say)
