"""Request and response bodies, field for field as in spec/api.md."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from cutline.engines.transcript.languages import SUPPORTED_LANGUAGES

Language = Literal[
    "bg", "cs", "da", "de", "el", "en", "es", "et", "fi", "fr", "he", "hr", "hu",
    "it", "lt", "lv", "mt", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sv", "uk",
]  # fmt: skip
assert set(Language.__args__) == set(SUPPORTED_LANGUAGES)  # type: ignore[attr-defined]

ProjectStatusName = Literal["created", "uploading", "ready", "failed"]
CommandStatusName = Literal["queued", "processing", "completed"]
ResultStatusName = Literal["queued", "processing", "completed", "failed"]
TranscriptOutput = Literal["text", "speakers", "utterances", "words"]
VisionOutput = Literal["faces", "face_tracks", "scenes"]
TRANSCRIPT_OUTPUTS: tuple[TranscriptOutput, ...] = ("text", "speakers", "utterances", "words")
VISION_OUTPUTS: tuple[VisionOutput, ...] = ("faces", "face_tracks", "scenes")


class ErrorBody(BaseModel):
    detail: str
    code: str


# --- projects -------------------------------------------------------------------------------


class UploadProjectRequest(BaseModel):
    filename: str = Field(min_length=1, max_length=255)
    content_type: str = Field(min_length=1, max_length=255)
    size_bytes: int | None = Field(default=None, gt=0)

    @field_validator("filename")
    @classmethod
    def _plain_filename(cls, value: str) -> str:
        # The filename is metadata, never a path; refuse what could be mistaken for one.
        if any(ch in value for ch in "/\\") or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise ValueError("filename must not contain path separators or control characters")
        if value in {".", ".."}:
            raise ValueError("filename must name a file")
        return value


class Source(BaseModel):
    type: str
    filename: str | None = None
    content_type: str | None = None
    media_kind: Literal["video", "audio"] | None = None
    size_bytes: int | None = None
    url: str | None = None


class UploadProjectResponse(BaseModel):
    project_id: str
    status: ProjectStatusName
    created_at: str
    source: Source
    upload_url: str
    upload_headers: dict[str, str]
    upload_expires_in_seconds: int


class CompleteUploadResponse(BaseModel):
    project_id: str
    status: ProjectStatusName
    created_at: str
    source: Source
    source_size_bytes: int
    duration: float
    width: int | None = None
    height: int | None = None


class ProjectDetailResponse(BaseModel):
    project_id: str
    status: ProjectStatusName
    created_at: str
    source: Source
    duration: float | None = None
    source_size_bytes: int | None = None
    width: int | None = None
    height: int | None = None


class UploadReceipt(BaseModel):
    """Our answer to the signed PUT (the contract leaves it open)."""

    project_id: str
    status: ProjectStatusName
    size_bytes: int


# --- analysis commands ----------------------------------------------------------------------


def _dedupe(values: list[Any] | None) -> list[Any] | None:
    return None if values is None else list(dict.fromkeys(values))


class TranscriptionRequest(BaseModel):
    language: Language
    requested_outputs: list[TranscriptOutput] | None = Field(default=None, min_length=1)
    diarize: bool = False

    _unique_outputs = field_validator("requested_outputs")(_dedupe)


class FaceDetectionRequest(BaseModel):
    requested_outputs: list[VisionOutput] | None = Field(default=None, min_length=1)

    _unique_outputs = field_validator("requested_outputs")(_dedupe)


class RetakeRemovalRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    language: Language


class TranscriptAck(BaseModel):
    project_id: str
    analysis: Literal["transcript"] = "transcript"
    status: CommandStatusName
    requested_outputs: list[TranscriptOutput]
    created_at: str


class VisionAck(BaseModel):
    project_id: str
    analysis: Literal["vision"] = "vision"
    status: CommandStatusName
    requested_outputs: list[VisionOutput]
    created_at: str


class RetakeRemovalAck(BaseModel):
    project_id: str
    analysis: Literal["retake_removal"] = "retake_removal"
    status: CommandStatusName
    created_at: str


# --- results --------------------------------------------------------------------------------


class Word(BaseModel):
    text: str
    start: float
    end: float
    speaker: int | None = Field(default=None, description="Present only when diarization was requested.")
    confidence: float | None = None


class Utterance(BaseModel):
    speaker: int | None = Field(default=None, description="Present only when diarization was requested.")
    start: float
    end: float
    text: str
    word_start_idx: int
    word_end_idx: int


class SpeakerSummary(BaseModel):
    speaker: int
    total_duration: float
    utterance_count: int


class TranscriptionResultResponse(BaseModel):
    project_id: str
    analysis: Literal["transcript"] = "transcript"
    status: ResultStatusName
    language: str | None = None
    error: str | None = None
    agent_context: dict[str, str] | None = None
    text: str = ""
    words: list[Word] = Field(default_factory=list)
    utterances: list[Utterance] = Field(default_factory=list)
    speakers: list[SpeakerSummary] = Field(default_factory=list)


class Detection(BaseModel):
    box: list[float] = Field(min_length=4, max_length=4)
    score: float
    track_id: int
    cluster_id: int
    speak_conf: float | None = Field(default=None, ge=0, le=1)


class FaceFrame(BaseModel):
    t: float
    detections: list[Detection]


class FaceTrack(BaseModel):
    track_id: int
    cluster_id: int
    frame_count: int
    start_t: float
    end_t: float
    median_box_area: float


class Scene(BaseModel):
    timestamp: float


class Asd(BaseModel):
    ran: bool
    reason: str | None = None
    assigned: int | None = None
    carried: int | None = None


class VisionResultResponse(BaseModel):
    project_id: str
    analysis: Literal["vision"] = "vision"
    status: ResultStatusName
    error: str | None = None
    agent_context: dict[str, str] | None = None
    faces: list[FaceFrame] = Field(default_factory=list)
    face_tracks: list[FaceTrack] = Field(default_factory=list)
    scenes: list[Scene] = Field(default_factory=list)
    asd: Asd | None = None


class RetakeWord(BaseModel):
    i: int
    start: float
    end: float
    text: str
    confidence: float
    source: str


class RemoveSpan(BaseModel):
    remove_word_start: int
    remove_word_end: int = Field(description="Exclusive, like word_end_idx.")


class KeepInterval(BaseModel):
    start: float
    end: float


class RetakeRemovalResultResponse(BaseModel):
    project_id: str
    status: ResultStatusName
    error: str | None = None
    words: list[RetakeWord] = Field(default_factory=list)
    remove_spans: list[RemoveSpan] = Field(default_factory=list)
    keep_intervals: list[KeepInterval] = Field(default_factory=list)


# --- me -------------------------------------------------------------------------------------


class WorkspaceInfo(BaseModel):
    id: str
    name: str | None = None


class ApiKeyInfo(BaseModel):
    prefix: str
    name: str | None = None
    scopes: list[str]


class Limits(BaseModel):
    requests_per_minute_per_key: int
    projects_per_day: int
    analysis_commands_per_day: int
    max_upload_bytes: int


class UsageToday(BaseModel):
    projects_created: int
    analysis_commands: int
    day_resets_at: str


class Pricing(BaseModel):
    transcript_per_uploaded_hour_cents: int
    diarization_addon_per_hour_cents: int
    vision_per_minute_cents: int
    retake_removal_per_minute_cents: int


class Billing(BaseModel):
    credit_balance_cents: int | None
    currency: str
    pricing: Pricing


class MeResponse(BaseModel):
    workspace: WorkspaceInfo
    api_key: ApiKeyInfo
    limits: Limits
    usage_today: UsageToday
    billing: Billing
    agent_context: dict[str, str]
