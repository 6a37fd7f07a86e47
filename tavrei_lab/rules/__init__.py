"""Rule modules: the protocol, the built-in families and the plugin registry."""

from tavrei_lab.rules.base import Option, Outcome, RuleModule
from tavrei_lab.rules.registry import rule_module, rule_modules

__all__ = ["Option", "Outcome", "RuleModule", "rule_module", "rule_modules"]
