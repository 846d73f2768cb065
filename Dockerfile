# syntax=docker/dockerfile:1

# lokal in a container: a static binary on distroless, run as a non-root user, with the
# SQLite database on a volume.
#
#   docker build -t lokal --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg COMMIT=$(git rev-parse HEAD) .        # or: make docker
#   docker run -d --name lokal -p 8080:8080 -v lokal-data:/data \
#     -e LOKAL_BASE_URL=https://lokal.example.com lokal
#   docker logs lokal          # the first start prints the workspace and its token once
#   docker exec lokal lokal project create --workspace WS --title "Web app" --source en --json
#
# Arguments after the image name are passed to `lokal serve`. For PostgreSQL, set
# LOKAL_DATABASE=postgres://... and the volume is not needed.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
ARG VERSION=dev
# .git is not in the build context (.dockerignore), so go build cannot record the commit:
# it comes from this argument, and `lokal version` says "unknown" only when it is not given.
ARG COMMIT=
# The SQLite driver is pure Go, so the binary needs no C library and runs on an image
# without one.
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w -X main.version=${VERSION} -X main.commit=${COMMIT}" -o /out/lokal ./cmd/lokal \
    && mkdir -p /out/data

# distroless/static carries CA certificates (for outbound HTTPS), tzdata and the nonroot
# user 65532, and no shell or package manager.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/lokal /usr/local/bin/lokal
# A volume is created with the ownership of the image's directory: 65532 must own /data
# for the database to be writable.
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
ENV LOKAL_DATABASE=sqlite:/data/lokal.db \
    LOKAL_LISTEN=0.0.0.0:8080
VOLUME /data
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/lokal", "serve"]
