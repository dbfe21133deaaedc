"""The game file: what the moderator declares (seats, days, rules) and the rulesets it names."""
