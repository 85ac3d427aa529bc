"""LeadFlow: the document pipeline of a mortgage brokerage serving expats in Germany."""
