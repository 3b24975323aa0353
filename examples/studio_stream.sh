#!/usr/bin/env bash
# A "studio" on this machine: Debian's ffmpeg renders a test pattern with the wall-clock time
# burnt in and serves it as live HLS (H.264 in MPEG-TS segments, with EXT-X-PROGRAM-DATE-TIME
# so the table page can measure the delay) on http://127.0.0.1:PORT/live.m3u8.
#
#   examples/studio_stream.sh [PORT] [RECORD_DIR]   # default port 8090; Ctrl-C stops it
#   punto ... PATCH /api/admin/tables/live-1 {"stream_url": "http://127.0.0.1:8090/live.m3u8"}
#
# With RECORD_DIR the studio also keeps a recording, as a real studio's media server does
# (video by game number): 2-second HLS segments named by their wall-clock start and a
# playlist with EXT-X-PROGRAM-DATE-TIME (rec-<start>.m3u8) in RECORD_DIR, which should be
# the table's folder under the server's PUNTO_RECORDINGS_DIR (e.g. $PUNTO_RECORDINGS_DIR/
# live-1). One encoding feeds both (ffmpeg's tee muxer); the server prunes the recording
# after PUNTO_VIDEO_RETENTION (24 h), and `punto video prune` does it by hand.
#
# Needs ffmpeg (apt-get install ffmpeg) and python3. The web server sends
# Access-Control-Allow-Origin: * so the table page (another origin) may read the playlist.
set -euo pipefail
PORT="${1:-8090}"
RECORD="${2:-}"
command -v ffmpeg >/dev/null || { echo "studio_stream: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 2; }
DIR="$(mktemp -d "${TMPDIR:-/tmp}/punto-studio.XXXXXX")"
cleanup() {
  trap - EXIT INT TERM
  kill "${FFMPEG:-}" "${HTTP:-}" 2>/dev/null || true
  wait 2>/dev/null || true  # ffmpeg finishes its files (the recording's playlist) first
  rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
LIVE_FLAGS=delete_segments+program_date_time+omit_endlist
if [ -n "$RECORD" ]; then
  mkdir -p "$RECORD"
  RECORD="$(cd "$RECORD" && pwd)"
  case "$RECORD" in *[:\|\[\]]*) echo "studio_stream: RECORD_DIR may not contain : | [ ]" >&2; exit 2 ;; esac
  STAMP="$(date -u +%Y%m%dT%H%M%S)"
  # The recording's segments are named by their wall-clock start (unique across restarts).
  OUTPUT=(-map 0:v -map 1:a -f tee
    "[f=hls:hls_time=1:hls_list_size=6:hls_flags=$LIVE_FLAGS]$DIR/live.m3u8|[f=hls:onfail=ignore:hls_time=2:hls_list_size=0:hls_flags=program_date_time+omit_endlist+temp_file:strftime=1:hls_segment_filename=$RECORD/$STAMP-%Y%m%dT%H%M%S.ts]$RECORD/rec-$STAMP.m3u8")
else
  OUTPUT=(-f hls -hls_time 1 -hls_list_size 6 -hls_flags "$LIVE_FLAGS" "$DIR/live.m3u8")
fi
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
TEXT="drawtext=text='PUNTO STUDIO %{localtime\\:%H\\\\\\:%M\\\\\\:%S}':x=(w-tw)/2:y=h-th-40:fontsize=32:fontcolor=white:box=1:boxcolor=black@0.6"
[ -f "$FONT" ] && TEXT="$TEXT:fontfile=$FONT"
# ffmpeg runs in a session of its own: only cleanup() signals it, once, so that it ends
# cleanly and writes the recording's last playlist (a second signal while it writes it may
# leave it empty).
setsid ffmpeg -hide_banner -loglevel error -re \
  -f lavfi -i "testsrc2=size=640x360:rate=25" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100" \
  -vf "$TEXT" \
  -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -g 25 -keyint_min 25 -sc_threshold 0 \
  -c:a aac -b:a 64k \
  "${OUTPUT[@]}" &
FFMPEG=$!
cd "$DIR"
python3 - "$PORT" <<'PY' &
import http.server, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()
    def log_message(self, *args):
        pass
Handler.extensions_map[".m3u8"] = "application/vnd.apple.mpegurl"
Handler.extensions_map[".ts"] = "video/mp2t"
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler).serve_forever()
PY
HTTP=$!
echo "studio_stream: http://127.0.0.1:$PORT/live.m3u8 (segments in $DIR)${RECORD:+, recording in $RECORD}"
wait -n "$FFMPEG" "$HTTP"
