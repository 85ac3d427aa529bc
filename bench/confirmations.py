"""What resting rejections on confirmed values costs and saves, on generated genuine documents.

Every layout of bench/synthetic is drawn (`--per-layout` seeds, one rendering), extracted with
`pipeline.extract` and verified as LeadFlow's callback does, twice: with the extractor's
`confirmed` (today's rule) and with every value counted as confirmed (the rule before). On the
day tests pin (2026-11-15) the documents are current: the two should agree, and a REJECTED
there is a genuine document refused. Then the same extractions are verified on a day when
every one is too old (2028-03-15): a REJECTED there rests on a confirmed value, an
ACTION_REQUIRED is a genuinely old document sent to a person because its value was read once.

    .venv/bin/python -m bench.confirmations [--rendering text_pdf] [--per-layout 2] [--types payslip,bank_statement]
"""
import argparse
import collections
from datetime import date

AS_OF = date(2026, 11, 15)
LATER = date(2028, 3, 15)


def main() -> None:
    import bench.synthetic as synthetic
    from leadflow.domain.verification import Applicant, Extraction, verify
    from leadflow.extractor import pipeline
    from leadflow.extractor.errors import ExtractionError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rendering", default="text_pdf")
    parser.add_argument("--per-layout", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--types", type=lambda text: text.split(","), default=None)
    args = parser.parse_args()

    counts = collections.Counter()
    for kind in args.types or sorted(synthetic.LAYOUTS):
        for layout_id in synthetic.layouts(kind):
            for seed in range(args.seed, args.seed + args.per_layout):
                doc = synthetic.generate(kind, layout_id, seed, args.rendering)
                try:
                    data = pipeline.extract(doc.data)
                except ExtractionError:
                    continue
                content = data["content"] or {}
                everything = {**content, "confirmed": dict.fromkeys(content.get("fields") or {}, "assumed")}
                for rule, judged in (("now", content), ("before", everything)):
                    for day in (AS_OF, LATER):
                        verdict = verify(Extraction(data["document_type"], data["confidence"], judged, data["pages"]),
                                         kind, Applicant(name=doc.person), day)
                        counts[(day, kind, verdict.status.value, rule)] += 1
    for day, title in ((AS_OF, "current (every document genuine and acceptable)"),
                       (LATER, "aged (every document too old)")):
        print(f"\n{day}, {title}: verdicts, every value confirmed (before) -> confirmed values only (now)")
        for kind, status in sorted({(k, s) for d, k, s, _ in counts if d == day}):
            print(f"  {kind:22} {status:16} {counts[(day, kind, status, 'before')]:4} -> "
                  f"{counts[(day, kind, status, 'now')]:4}")


if __name__ == "__main__":
    main()
