"""Names and types shared by the gateway and the consumer, each defined once."""
