"""What the specification leaves free is left alone by the suite (spec/requirements.yaml, ``free``)."""

from __future__ import annotations

from collections.abc import Mapping

from support.bundled import bundled_suite

from reference_impl.spec_files import spec_dir


def test_no_scenario_names_the_reason_of_an_invalid_event():
    """The reason of an `invalid` event is free text (free: invalid-reason): no step may compare it."""
    suite, problems = bundled_suite()
    assert problems == []
    naming = [f"{s.id} step {step.index}" for s in suite for step in s.steps if step.host and step.host.events
              for event in step.host.events if isinstance(event, Mapping) and event.get("event") == "invalid"
              and "reason" in event]
    assert naming == []


def test_every_free_choice_has_a_chinese_text():
    import yaml

    english = yaml.safe_load((spec_dir() / "requirements.yaml").read_text(encoding="utf-8"))["free"]
    chinese = yaml.safe_load((spec_dir() / "requirements.zh.yaml").read_text(encoding="utf-8"))["free"]
    assert [entry["id"] for entry in english] == list(chinese)
