# Red November's web server: a small image, a non-root user, a health check.
#   docker build -t rednovember .
#   docker run -p 8000:8000 -v rn-data:/data rednovember        (SQLite in the volume)
# Settings come from REDNOVEMBER_* environment variables (docs/protocol.md); compose.yaml runs it
# with PostgreSQL behind Caddy.
FROM python:3.11-slim AS build
# A C compiler: mypyc compiles the rules engine and the bots into the wheel (setup.py); the image that runs it
# needs none.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py MANIFEST.in constraints.txt README.md LICENSE ./
COPY src ./src
RUN pip install --no-cache-dir -c constraints.txt pip \
    && pip wheel --no-cache-dir --wheel-dir /wheels -c constraints.txt \
       --build-constraint constraints.txt ".[postgres]" \
    && python -c "import glob, sys; sys.exit(not glob.glob('/wheels/rednovember-*-linux_*.whl'))"

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    REDNOVEMBER_HOST=0.0.0.0 REDNOVEMBER_PORT=8000 \
    REDNOVEMBER_DB=sqlite:////data/rednovember.db
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels "rednovember[postgres]" \
    && rm -rf /wheels \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin rednovember \
    && mkdir -p /data && chown rednovember /data
USER rednovember
WORKDIR /data
VOLUME /data
EXPOSE 8000
# ready: the process answers and so does its database (/api/health: the process alone)
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/api/ready', timeout=2).status != 200)"]
CMD ["python", "-m", "rednovember", "serve"]
