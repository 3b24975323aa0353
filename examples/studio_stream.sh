#!/usr/bin/env bash
# A "studio" on this machine: Debian's ffmpeg renders a test pattern with the wall-clock time
# burnt in and serves it as live HLS (H.264 in MPEG-TS segments, with EXT-X-PROGRAM-DATE-TIME
# so the table page can measure the delay) on http://127.0.0.1:PORT/live.m3u8.
#
#   examples/studio_stream.sh [PORT]          # default port 8090; Ctrl-C stops it
#   punto ... PATCH /api/admin/tables/live-1 {"stream_url": "http://127.0.0.1:8090/live.m3u8"}
#
# Needs ffmpeg (apt-get install ffmpeg) and python3. The web server sends
# Access-Control-Allow-Origin: * so the table page (another origin) may read the playlist.
set -euo pipefail
PORT="${1:-8090}"
command -v ffmpeg >/dev/null || { echo "studio_stream: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 2; }
DIR="$(mktemp -d "${TMPDIR:-/tmp}/punto-studio.XXXXXX")"
cleanup() { kill "${FFMPEG:-}" "${HTTP:-}" 2>/dev/null || true; rm -rf "$DIR"; }
trap cleanup EXIT INT TERM
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
TEXT="drawtext=text='PUNTO STUDIO %{localtime\\:%H\\\\\\:%M\\\\\\:%S}':x=(w-tw)/2:y=h-th-40:fontsize=32:fontcolor=white:box=1:boxcolor=black@0.6"
[ -f "$FONT" ] && TEXT="$TEXT:fontfile=$FONT"
ffmpeg -hide_banner -loglevel error -re \
  -f lavfi -i "testsrc2=size=640x360:rate=25" \
  -f lavfi -i "sine=frequency=440:sample_rate=44100" \
  -vf "$TEXT" \
  -c:v libx264 -preset veryfast -tune zerolatency -pix_fmt yuv420p -g 25 -keyint_min 25 -sc_threshold 0 \
  -c:a aac -b:a 64k \
  -f hls -hls_time 1 -hls_list_size 6 -hls_flags delete_segments+program_date_time+omit_endlist \
  "$DIR/live.m3u8" &
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
echo "studio_stream: http://127.0.0.1:$PORT/live.m3u8 (segments in $DIR)"
wait -n "$FFMPEG" "$HTTP"
