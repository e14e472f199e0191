// The pages' own events (CustomEvent), as their modules send them: the lobby socket's
// news told to the page by bell.js (docs/api/websocket.md, "The lobby"), and the replay
// and the review telling each other the ply shown.
interface LobbyNews {
  type: string;
  incoming?: number;
  unread?: number;
  notification?: { kind: string; [key: string]: unknown } | null;
}

interface DocumentEventMap {
  notification: CustomEvent<LobbyNews>;
  challenges: CustomEvent<LobbyNews>;
}

interface HTMLElementEventMap {
  "replay:drawn": CustomEvent<{ ply: number }>;
  "review:goto": CustomEvent<{ ply: number }>;
}
