"""Computing: Problem -> Trace, exactly (linear forms of logits, one fraction per row)."""
