"""One module per benchmark; each exposes ``run(ctx, args) -> ScenarioResult``."""
