"""`handlog rules`: the house-rule profiles, each parameter with its meaning and citation."""

from __future__ import annotations

import json
import textwrap

import click

from handlog.engine.profiles import (
    FLIP_TEST,
    GOVERNS,
    PROFILES,
    SITE_PROFILES,
    Profile,
    get_profile,
    parameter_scopes,
)
from handlog.recorder.structure import StructureError, load_structure


@click.group("rules")
def rules() -> None:
    """List the house-rule profiles and show what each one sets, and why."""


@rules.command("list")
def list_profiles() -> None:
    """One line per profile: name, title and the document it comes from."""
    width = max(len(name) for name in PROFILES)
    title_width = max(len(p.title) for p in PROFILES.values())
    for profile in PROFILES.values():
        click.echo(f"{profile.name:<{width}}  {profile.title:<{title_width}}  {profile.source}")


@rules.command("show")
@click.argument("name")
@click.option("--json", "as_json", is_flag=True, help="Print the profile as one JSON object.")
def show(name: str, as_json: bool) -> None:
    """Every parameter of profile NAME (an online site's too, or the room profile a structure
    file NAME carries): its value, what it means, what it governs, the rule it rests on and the
    test proving it."""
    profile = PROFILES.get(name) or SITE_PROFILES.get(name)
    if profile is None and name.endswith(".toml"):
        try:
            profile = get_profile(load_structure(name).profile)
        except StructureError as error:
            raise click.ClickException(str(error)) from None
    if profile is None:
        known = ", ".join(PROFILES)
        raise click.BadParameter(
            f"unknown house-rule profile {name!r}; known profiles: {known}; online sites: "
            f"{', '.join(SITE_PROFILES)} (or a structure file, NAME.toml)",
            param_hint="NAME",
        )
    if as_json:
        click.echo(json.dumps(profile_as_dict(profile), indent=2, ensure_ascii=False))
        return
    click.echo(f"{profile.name}: {profile.title}")
    click.echo(f"source: {profile.source}")
    scopes = parameter_scopes()
    for param, value, meaning, citation in profile.parameters():
        click.echo("")
        click.echo(f"{param} = {format_value(value)}    [{scopes[param]}]")
        for label, text in (("meaning", meaning), ("governs", GOVERNS[param]),
                            ("citation", citation), ("proved by", f"{FLIP_TEST}[{param}]")):
            click.echo(textwrap.fill(text, width=96, initial_indent=f"  {label}: ",
                                     subsequent_indent="    ", break_on_hyphens=False,
                                     break_long_words=False))


def profile_as_dict(profile: Profile) -> dict[str, object]:
    """The profile as plain JSON data (tuples become lists)."""
    scopes = parameter_scopes()
    return {
        "name": profile.name,
        "title": profile.title,
        "source": profile.source,
        "parameters": [
            {"name": param, "value": value, "scope": scopes[param], "meaning": meaning,
             "governs": GOVERNS[param], "citation": citation,
             "proved_by": f"{FLIP_TEST}[{param}]"}
            for param, value, meaning, citation in profile.parameters()
        ],
    }


def format_value(value: object) -> str:
    """A parameter value as typed in JSON, except that plain words are left unquoted."""
    if isinstance(value, str):
        return value
    return json.dumps(value)
