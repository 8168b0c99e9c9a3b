"""Display names of the tracks sources give (slugs such as ``srw`` or ``applied-data-science``),
in English here and in Chinese in the catalogs; a track no name is known for reads as its slug
in words ("late-papers" -> "Late papers")."""

from __future__ import annotations

from ..service.errors import N_

TRACKS = {
    "main": N_("Main track"),
    "journal": N_("Journal"),
    "long": N_("Long papers"),
    "short": N_("Short papers"),
    "datasets-and-benchmarks": N_("Datasets and benchmarks"),
    "demo": N_("Demonstrations"),
    "research": N_("Research track"),
    "industry": N_("Industry track"),
    "applied-data-science": N_("Applied data science"),
    "srw": N_("Student research workshop"),
    "survey": N_("Surveys"),
    "doctoral-consortium": N_("Doctoral consortium"),
    "student-abstract-track": N_("Student abstracts"),
    "workshop": N_("Workshop papers"),
    "machine-learning-methods": N_("Machine learning methods"),
    "sister-conferences-best-papers": N_("Best papers from sister conferences"),
    "late-breaking-results": N_("Late-breaking results"),
    "ai-for-good": N_("AI for good"),
    "web4good": N_("Web for good"),
    "early-career": N_("Early career"),
    "tutorial": N_("Tutorials"),
    "aaai-special-technical-track-ai-for-social-impact": N_("Special track: AI for social impact"),
    "best-sister-conferences": N_("Best papers from sister conferences"),
    "ai-and-social-good": N_("AI and social good"),
    "ai-arts-and-creativity": N_("AI, arts and creativity"),
    "student-abstracts-and-posters": N_("Student abstracts and posters"),
    "ai4tech-ai-enabling-technologies": N_("AI4Tech: AI-enabling technologies"),
    "ai-for-improving-human-well-being": N_("AI for improving human well-being"),
    "iaai-technical-track-emerging-papers": N_("IAAI: emerging applications"),
    "special-track-on-ai-in-fintech": N_("Special track: AI in fintech"),
    "special-track-on-ai-for-good": N_("Special track: AI for good"),
    "iaai18-emerging": N_("IAAI: emerging applications"),
    "special-track-computational-sustainability": N_("Special track: computational sustainability"),
    "human-centred-ai": N_("Human-centred AI"),
    "special-track-on-ai-for-compsust-and-human-well-being":
        N_("Special track: AI for computational sustainability and human well-being"),
    "eaai-symposium-full-paper": N_("EAAI: full papers"),
    "special-track-on-ai-the-arts-and-creativity": N_("Special track: AI, the arts and creativity"),
    "what-s-hot-abstracts": N_("What's hot abstracts"),
    "special-track-on-cognitive-systems": N_("Special track: cognitive systems"),
    "intelligent-robots-rob": N_("Intelligent robots"),
    "eaai-symposium-full-papers": N_("EAAI: full papers"),
    "doctoral-consortium-track": N_("Doctoral consortium"),
    "demonstration-track": N_("Demonstrations"),
    "special-track-on-computational-sustainability": N_("Special track: computational sustainability"),
    "computational-sustainability-and-artificial-intelligence": N_("Computational sustainability and AI"),
    "ai-and-arts": N_("AI and the arts"),
    "ai-and-autonomy-track": N_("AI and autonomy"),
    "special-track-cognitive-systems": N_("Special track: cognitive systems"),
    "senior-member-summary-talks": N_("Senior member summary talks"),
    "eaai-symposium-poster-paper": N_("EAAI: posters"),
    "senior-member-presentation-track-blue-sky-papers": N_("Senior member blue sky papers"),
    "phd-symposium": N_("PhD symposium"),
    "eaai18-full-papers": N_("EAAI: full papers"),
    "understanding-intelligence-and-human-level-ai-in-the-new-mac":
        N_("Understanding intelligence and human-level AI"),
    "special-track-on-integrated-systems": N_("Special track: integrated systems"),
    "senior-track": N_("Senior member track"),
    "ai-for-good-projects": N_("AI for good projects"),
    "invited-speakers": N_("Invited speakers"),
    "iaai18-deployed": N_("IAAI: deployed applications"),
    "senior-member-presentation-track-summary-talks": N_("Senior member summary talks"),
    "evolution-of-the-contours-of-ai": N_("Evolution of the contours of AI"),
    "senior-member-blue-sky": N_("Senior member blue sky papers"),
    "late-papers": N_("Late papers"),
    "iaai-technical-track-deployed-papers": N_("IAAI: deployed applications"),
    "eaai18-poster-papers": N_("EAAI: posters"),
    "senior-member-blue-sky-papers": N_("Senior member blue sky papers"),
    "special-track-integrated-ai-capabilities": N_("Special track: integrated AI capabilities"),
    "human-aware-artificial-intelligence": N_("Human-aware AI"),
    "iaai-technical-challenge-papers": N_("IAAI: technical challenges"),
    "eaai-symposium-poster-papers": N_("EAAI: posters"),
    "eaai-symposium-model-ai-assignments": N_("EAAI: model AI assignments"),
    "cognitive-modeling-and-cognitive-systems": N_("Cognitive modeling and cognitive systems"),
    "eaai18-model-ai-assignments": N_("EAAI: model AI assignments"),
    "eaai-model-ai-assignments": N_("EAAI: model AI assignments"),
}


def track_label(slug: str | None) -> str:
    """The English display name of a track (a catalog msgid where one is known)."""
    if not slug:
        return ""
    return TRACKS.get(slug) or slug.replace("-", " ").replace("_", " ").capitalize()
