"""The named special rules a variant file may switch on, and their parameters.

A variant file lists its rules in ``"special_rules"``, each a name or an
object ``{"name": ..., parameters...}``. The engine implements exactly the
rules named here; a file naming any other is refused, so a variant can never
be played under rules the adjudicator silently ignores.

* ``build_any_owned_centre`` (Chaos): a power builds in any supply centre it
  owns, not only in its home centres. With ``"needs_home": true`` (the
  Judge's SET ONE CENTRE) only while it still owns one of its home centres.
* ``hong_kong`` (Colonial, ``"province"``, ``"not_for"``): that centre is a
  supply centre for every power except ``not_for`` (China). A unit of
  ``not_for`` standing there at the end of a Fall turn takes it from its
  owner but does not own it: the centre is then unowned, so it never counts
  for that power's builds or victory.
* ``railway`` (Colonial's Trans-Siberian Railroad, ``"power"``,
  ``"provinces"`` in line order): an army of that power may move in one turn
  from one province of the line to any other. The line must be clear once
  the turn's moves are made: no province in between holds a unit of another
  power, and each supply centre in between that the power does not own
  holds one of its units; otherwise the train stops (fails, and bounces no
  one at its destination). Such a move cannot dislodge a unit and cannot cut
  a support; it can bounce others and be supported to enter an empty
  province. One army per turn.
* ``suez_canal`` (Colonial, ``"province"``, ``"seas"``): a fleet in that
  province may move to and from each of the listed seas (an extra fleet
  crossing; the adjacency itself must be in the map).
* ``neutral_units`` (``"units"``: ``["A XXX", ...]``): units of no power that
  stand at the start, never move, defend like any unit and may be supported;
  dislodged, they are destroyed. They own nothing. With ``"rebuild": true``
  (Known World 901, as webDiplomacy plays it) a neutral unit is raised again
  in an adjustment phase where it started, if that province is a supply
  centre no power owns and no unit stands in.

A rule a game's options switch on, never a variant file (so not in :data:`RULE_NAMES`):

* ``coastal_convoys`` (the Renaissance game's SET COASTAL CONVOYS): a fleet in a coastal
  province with one coast convoys as a fleet at sea does, carrying the army only between the
  places its own coast borders (a convoy never jumps from one coast to another, so a fleet on
  one of two coasts convoys nothing).

Pure data: this module only reads and checks the parameters.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from judge.core.errors import VariantError
from judge.core.units import Unit, UnitType

NEUTRAL = "NEUTRAL"
"""The power name neutral units carry in positions (never a power of a variant)."""

RULE_NAMES = ("build_any_owned_centre", "hong_kong", "railway", "suez_canal", "neutral_units")


@dataclass(frozen=True, slots=True)
class HongKong:
    province: str
    not_for: str


@dataclass(frozen=True, slots=True)
class Railway:
    power: str
    provinces: tuple[str, ...]

    def path_between(self, src: str, dst: str) -> tuple[str, ...] | None:
        """The provinces strictly between ``src`` and ``dst`` on the line, or None if either is off it."""
        if src not in self.provinces or dst not in self.provinces or src == dst:
            return None
        i, j = self.provinces.index(src), self.provinces.index(dst)
        if i < j:
            return self.provinces[i + 1 : j]
        return tuple(reversed(self.provinces[j + 1 : i]))


@dataclass(frozen=True, slots=True)
class SuezCanal:
    province: str
    seas: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpecialRules:
    """The special rules of one variant; the defaults are the Standard game's (none)."""

    build_any_owned_centre: bool = False
    builds_need_a_home_centre: bool = False
    hong_kong: HongKong | None = None
    railway: Railway | None = None
    suez_canal: SuezCanal | None = None
    neutral_units: tuple[Unit, ...] = ()
    neutral_rebuild: bool = False
    coastal_convoys: bool = False

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the rules switched on, in :data:`RULE_NAMES` order."""
        on = {
            "build_any_owned_centre": self.build_any_owned_centre,
            "hong_kong": self.hong_kong is not None,
            "railway": self.railway is not None,
            "suez_canal": self.suez_canal is not None,
            "neutral_units": bool(self.neutral_units),
        }
        return tuple(name for name in RULE_NAMES if on[name])

    def counts_as_centre(self, province: str, power: str) -> bool:
        """False only for Hong Kong and the power it is no centre for."""
        hk = self.hong_kong
        return hk is None or province != hk.province or power != hk.not_for


NO_SPECIAL_RULES = SpecialRules()


def read_special_rules(value: object, where: str) -> SpecialRules:
    """Read the ``special_rules`` list of a variant file (province codes are checked by the map)."""
    if value is None:
        return NO_SPECIAL_RULES
    if not isinstance(value, list):
        raise VariantError(f"{where}: special_rules must be a list of rule names or objects")
    found: dict[str, object] = {}
    for entry in value:
        params: Mapping[str, object]
        if isinstance(entry, str):
            name, params = entry, {}
        elif isinstance(entry, dict) and isinstance(entry.get("name"), str):
            name, params = entry["name"], entry
        else:
            raise VariantError(f"{where}: each special rule must be a name or an object with a \"name\"")
        if name not in RULE_NAMES:
            raise VariantError(
                f"{where}: unknown special rule {name!r}; this judge implements {', '.join(RULE_NAMES)}"
            )
        if name in found:
            raise VariantError(f"{where}: special rule {name} is listed twice")
        ctx = f"{where}: special rule {name}"
        if name == "build_any_owned_centre":
            needs_home = params.get("needs_home", False)
            if not isinstance(needs_home, bool):
                raise VariantError(f"{ctx}: needs_home must be true or false")
            found[name] = True
            found["builds_need_a_home_centre"] = needs_home
        elif name == "hong_kong":
            found[name] = HongKong(_text(params, "province", ctx, "HON"), _text(params, "not_for", ctx, "CHINA"))
        elif name == "railway":
            provinces = _texts(params, "provinces", ctx)
            if len(provinces) < 3:
                raise VariantError(f"{ctx}: a railway needs at least three provinces in line order")
            if len(set(provinces)) != len(provinces):
                raise VariantError(f"{ctx}: a province appears twice on the line")
            found[name] = Railway(_text(params, "power", ctx, "RUSSIA"), provinces)
        elif name == "suez_canal":
            found[name] = SuezCanal(_text(params, "province", ctx, "EGY"), _texts(params, "seas", ctx))
        else:
            rebuild = params.get("rebuild", False)
            if not isinstance(rebuild, bool):
                raise VariantError(f"{ctx}: rebuild must be true or false")
            found[name] = tuple(_neutral(spec, ctx) for spec in _texts(params, "units", ctx))
            found["neutral_rebuild"] = rebuild
    return SpecialRules(
        build_any_owned_centre=bool(found.get("build_any_owned_centre", False)),
        builds_need_a_home_centre=bool(found.get("builds_need_a_home_centre", False)),
        hong_kong=found.get("hong_kong"),  # type: ignore[arg-type]
        railway=found.get("railway"),  # type: ignore[arg-type]
        suez_canal=found.get("suez_canal"),  # type: ignore[arg-type]
        neutral_units=found.get("neutral_units", ()),  # type: ignore[arg-type]
        neutral_rebuild=bool(found.get("neutral_rebuild", False)),
    )


def _text(params: Mapping[str, object], key: str, ctx: str, default: str) -> str:
    value = params.get(key, default)
    if not isinstance(value, str) or not value:
        raise VariantError(f"{ctx}: {key} must be a non-empty string")
    return value


def _texts(params: Mapping[str, object], key: str, ctx: str) -> tuple[str, ...]:
    value = params.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise VariantError(f"{ctx}: {key} must be a non-empty list of strings")
    return tuple(value)


def _neutral(spec: str, ctx: str) -> Unit:
    parts = spec.split()
    if len(parts) != 2 or parts[0] not in ("A", "F"):
        raise VariantError(f"{ctx}: cannot read neutral unit {spec!r} (expected e.g. 'A SWI')")
    return Unit(NEUTRAL, UnitType(parts[0]), parts[1])
