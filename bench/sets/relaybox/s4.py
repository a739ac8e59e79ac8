"""Session 4: deploy 0.9.0 to k3s staging: CrashLoopBackOff (missing secret) fixed, readiness left OPEN."""
from lib_transcript import Session

ROOT = "/Users/mira/src/relaybox"


def build():
    s = Session(seed=4404, cwd=ROOT, branch="main", start_iso="2026-11-17T10:02:18.000Z")
    s.snapshot()
    s.mark("task")
    s.user("#43 is merged and Tomás merged his config change yesterday. let's ship 0.9.0 to staging: "
           "migrate, tag, build + push the image, helm upgrade")
    s.upto("task")
    s.bash("git checkout main && git pull --ff-only && git log --oneline -6", "Update main and show recent commits",
           """Already on 'main'
Your branch is up to date with 'origin/main'.
From github.com:mira-okafor/relaybox
   b61f4e9..e90c3b7  main       -> origin/main
Updating b61f4e9..e90c3b7
Fast-forward
 cmd/relaybox/config.go                            | 19 ++++++++++++++-----
 deploy/helm/relaybox/templates/_helpers.tpl       |  6 ++----
 deploy/helm/relaybox/templates/deployment.yaml    | 12 ++++++++++--
 deploy/helm/relaybox/values.yaml                  |  4 ++++
 internal/db/queries/deliveries.sql                | 19 +++++++++++++++++++
 internal/db/retry_integration_test.go             | 58 ++++++++++++++++++++++++++++++
 internal/db/sqlc/deliveries.sql.go                | 61 ++++++++++++++++++++++++++++++
 internal/db/sqlc/models.go                        |  1 +
 internal/relay/dispatcher.go                      |  8 ++++++++
 internal/relay/relaytest/memstore.go              | 25 +++++++++++++++++++++++
 internal/relay/retry.go                           | 37 ++++++++++++++++-------
 internal/relay/store.go                           | 12 ++++++++++++
 migrations/20261113094210_deliveries_next_attempt.sql |  9 +++++++++
 13 files changed, 251 insertions(+), 20 deletions(-)
 create mode 100644 internal/db/retry_integration_test.go
 create mode 100644 migrations/20261113094210_deliveries_next_attempt.sql
e90c3b7 (HEAD -> main, origin/main, origin/HEAD) config: require RELAYBOX_HMAC_SECRET unless RELAYBOX_ALLOW_UNSIGNED=1 (#45)
a18d2f6 chart: drop legacy app label, use app.kubernetes.io/* only (#44)
5c2b7e1 db: persist retry schedule in deliveries.next_attempt_at (#43)
b61f4e9 relay: exponential backoff with full jitter for retries (#42)
7a3f0c5 relay: guard dispatcher stats with a mutex (#41)
d41b7c2 relay: expose per-consumer attempt stats on /debug/relay""")
    s.bash("grep -n -A8 '^migrate-staging\\|^deploy-staging' Makefile", "Show staging targets",
           """41:migrate-staging:
42-	kubectl -n databases port-forward svc/postgres-rw 15432:5432 >/dev/null & echo $$! > .pf.pid; sleep 2; \\
43-	goose -dir migrations postgres "$$(op read 'op://staging/relaybox/database-url-local')" up; \\
44-	kill $$(cat .pf.pid); rm -f .pf.pid
45-
46-deploy-staging:
47-	@test -n "$(TAG)" || (echo "TAG is required, e.g. make deploy-staging TAG=0.9.0" && exit 1)
48-	helm upgrade --install relaybox deploy/helm/relaybox -n relaybox \\
49-	  -f deploy/helm/values-staging.yaml --set image.tag=$(TAG) --wait=false""")
    s.say("Migration first, so the new `next_attempt_at` column exists before 0.9.0 pods start.")
    s.bash("make migrate-staging", "Apply migrations to staging DB through a port-forward",
           """kubectl -n databases port-forward svc/postgres-rw 15432:5432 >/dev/null & echo $! > .pf.pid; sleep 2; \\
	goose -dir migrations postgres "$(op read 'op://staging/relaybox/database-url-local')" up; \\
	kill $(cat .pf.pid); rm -f .pf.pid
2026/11/17 10:05:12 OK   20261113094210_deliveries_next_attempt.sql (41.07ms)
2026/11/17 10:05:12 goose: successfully migrated database to version: 20261113094210""", slow=6)
    s.bash("git tag -a v0.9.0 -m \"relaybox 0.9.0: backoff with jitter, persisted retries\" && git push origin v0.9.0",
           "Tag and push v0.9.0",
           """Enumerating objects: 1, done.
Counting objects: 100% (1/1), done.
Writing objects: 100% (1/1), 196 bytes | 196.00 KiB/s, done.
Total 1 (delta 0), reused 0 (delta 0), pack-reused 0
To github.com:mira-okafor/relaybox.git
 * [new tag]         v0.9.0 -> v0.9.0""")
    s.bash("docker buildx build --platform linux/amd64,linux/arm64 -t ghcr.io/mira-okafor/relaybox:0.9.0 "
           "--build-arg VERSION=0.9.0 --push . 2>&1 | tail -12",
           "Build and push multi-arch image",
           """#18 [linux/arm64 build 6/6] RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=0.9.0 -X main.commit=e90c3b7" -o /out/relaybox ./cmd/relaybox
#18 DONE 41.3s
#21 exporting to image
#21 exporting layers 2.1s done
#21 exporting manifest sha256:0b6f3e9d7c51a2f48e1d0c9a87b6e2f4c3d1a0e9f8b7c6d5e4f3a2b1c0d9e8f7 done
#21 exporting config sha256:8a1c2e3f4b5d6a7c8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d done
#21 exporting manifest list sha256:c4d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2 done
#21 pushing layers
#21 pushing layers 6.8s done
#21 pushing manifest for ghcr.io/mira-okafor/relaybox:0.9.0@sha256:c4d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2
#21 pushing manifest for ghcr.io/mira-okafor/relaybox:0.9.0@sha256:c4d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2 1.9s done
#21 DONE 10.9s""", slow=95)
    s.bash("make deploy-staging TAG=0.9.0", "Helm upgrade staging",
           """helm upgrade --install relaybox deploy/helm/relaybox -n relaybox \\
	  -f deploy/helm/values-staging.yaml --set image.tag=0.9.0 --wait=false
Release "relaybox" has been upgraded. Happy Helming!
NAME: relaybox
LAST DEPLOYED: Tue Nov 17 11:07:40 2026
NAMESPACE: relaybox
STATUS: deployed
REVISION: 17
TEST SUITE: None""", slow=4)
    s.bash("helm history relaybox -n relaybox --max 4", "Release history",
           """REVISION	UPDATED                 	STATUS    	CHART          	APP VERSION	DESCRIPTION
14      	Thu Oct 29 15:12:08 2026	superseded	relaybox-0.7.2 	0.8.1      	Upgrade complete
15      	Wed Nov  4 09:40:51 2026	superseded	relaybox-0.7.3 	0.8.2      	Upgrade complete
16      	Wed Nov 11 08:03:27 2026	superseded	relaybox-0.7.3 	0.8.3      	Upgrade complete
17      	Tue Nov 17 11:07:40 2026	deployed  	relaybox-0.8.0 	0.9.0      	Upgrade complete""")
    s.mark("crash")
    s.bash("kubectl rollout status deployment/relaybox -n relaybox --timeout=180s", "Wait for rollout",
           """Waiting for deployment "relaybox" rollout to finish: 1 out of 2 new replicas have been updated...
Waiting for deployment "relaybox" rollout to finish: 1 out of 2 new replicas have been updated...
error: timed out waiting for the condition""", error=True, slow=180)
    s.bash("kubectl get pods -n relaybox -o wide", "List pods",
           """NAME                        READY   STATUS             RESTARTS      AGE     IP            NODE      NOMINATED NODE   READINESS GATES
relaybox-5f6b9d7c9-8kq2x    1/1     Running            0             6d2h    10.42.1.23    k3s-w1    <none>           <none>
relaybox-5f6b9d7c9-tn4vz    1/1     Running            0             6d2h    10.42.2.18    k3s-w2    <none>           <none>
relaybox-7d9c6b8f4-xr7lm    0/1     CrashLoopBackOff   5 (41s ago)   3m22s   10.42.2.57    k3s-w2    <none>           <none>""")
    s.bash("kubectl logs relaybox-7d9c6b8f4-xr7lm -n relaybox --previous", "Logs of the crashed container",
           """time=2026-11-17T10:10:03.118Z level=INFO msg="starting relaybox" version=0.9.0 commit=e90c3b7
time=2026-11-17T10:10:03.119Z level=ERROR msg="invalid configuration" err="envconfig.Process: required key RELAYBOX_HMAC_SECRET missing value"
""", error=False)
    s.say("CrashLoopBackOff: the new pod exits at start-up because `RELAYBOX_HMAC_SECRET` is unset. That's "
          "Tomás's e90c3b7, which made the secret mandatory. The two old 0.8.3 pods keep serving (maxUnavailable "
          "is 0). Let me see where the chart expects the value from.")
    s.bash("grep -n -B2 -A5 HMAC deploy/helm/relaybox/templates/deployment.yaml && grep -n -A2 secrets deploy/helm/values-staging.yaml && kubectl get secrets -n relaybox",
           "Find HMAC secret wiring and existing secrets",
           """38-            - name: RELAYBOX_DATABASE_URL
39-              valueFrom: {secretKeyRef: {name: relaybox-db, key: url}}
40:            - name: RELAYBOX_HMAC_SECRET
41-              valueFrom:
42-                secretKeyRef:
43-                  name: {{ .Values.secrets.name }}
44-                  key: hmac-secret
45-                  optional: true
12:secrets:
13-  name: relaybox-secrets
NAME                             TYPE                 DATA   AGE
relaybox-db                      Opaque               1      248d
sh.helm.release.v1.relaybox.v15  helm.sh/release.v1   1      13d
sh.helm.release.v1.relaybox.v16  helm.sh/release.v1   1      6d2h
sh.helm.release.v1.relaybox.v17  helm.sh/release.v1   1      5m""")
    s.upto("crash")
    s.say("Found it: the chart reads `RELAYBOX_HMAC_SECRET` from the Secret `relaybox-secrets` (key `hmac-secret`) "
          "with `optional: true`, and that Secret was never created in the `relaybox` namespace (only "
          "`relaybox-db` exists). Because it's optional, the pod starts without the variable and then the app "
          "exits. Where does the staging HMAC secret live? I don't want to invent one, the providers sign with it.")
    s.mark("secret")
    s.user("it's in 1password, vault staging, item relaybox, field hmac-secret. use op read and pipe it in, don't print it")
    s.bash("kubectl create secret generic relaybox-secrets -n relaybox "
           "--from-literal=hmac-secret=\"$(op read 'op://staging/relaybox/hmac-secret')\" && "
           "kubectl rollout restart deployment/relaybox -n relaybox",
           "Create relaybox-secrets from 1Password and restart rollout",
           """secret/relaybox-secrets created
deployment.apps/relaybox restarted""", slow=3)
    s.bash("kubectl rollout status deployment/relaybox -n relaybox --timeout=180s", "Wait for rollout again",
           """Waiting for deployment "relaybox" rollout to finish: 1 out of 2 new replicas have been updated...
Waiting for deployment "relaybox" rollout to finish: 1 out of 2 new replicas have been updated...
error: timed out waiting for the condition""", error=True, slow=180)
    s.bash("kubectl get pods -n relaybox", "List pods", """NAME                        READY   STATUS    RESTARTS   AGE
relaybox-5f6b9d7c9-8kq2x    1/1     Running   0          6d2h
relaybox-5f6b9d7c9-tn4vz    1/1     Running   0          6d2h
relaybox-6c8f7d5b9-p2wsd    0/1     Running   0          3m14s""")
    s.upto("secret")
    s.say("Progress: no more crash, the secret is picked up. But the new pod is Running and never becomes Ready.")
    s.mark("ready")
    s.bash("kubectl describe pod relaybox-6c8f7d5b9-p2wsd -n relaybox | sed -n '/Readiness/p;/Events:/,$p'",
           "Readiness probe config and events",
           """    Readiness:      http-get http://:http/readyz delay=5s timeout=1s period=10s #success=1 #failure=3
Events:
  Type     Reason     Age                  From               Message
  ----     ------     ----                 ----               -------
  Normal   Scheduled  3m20s                default-scheduler  Successfully assigned relaybox/relaybox-6c8f7d5b9-p2wsd to k3s-w1
  Normal   Pulled     3m19s                kubelet            Container image "ghcr.io/mira-okafor/relaybox:0.9.0" already present on machine
  Normal   Created    3m19s                kubelet            Created container relaybox
  Normal   Started    3m19s                kubelet            Started container relaybox
  Warning  Unhealthy  8s (x19 over 3m9s)   kubelet            Readiness probe failed: Get "http://10.42.1.64:8080/readyz": context deadline exceeded (Client.Timeout exceeded while awaiting headers)""")
    s.bash("kubectl logs relaybox-6c8f7d5b9-p2wsd -n relaybox --tail=6", "Recent logs of the unready pod",
           """time=2026-11-17T10:19:41.402Z level=INFO msg="starting relaybox" version=0.9.0 commit=e90c3b7
time=2026-11-17T10:19:41.403Z level=INFO msg="listening" addr=:8080
time=2026-11-17T10:19:49.411Z level=WARN msg="readyz: database ping failed" err="failed to connect to `user=relaybox database=relaybox`: 10.43.12.7:5432 (postgres-rw.databases.svc.cluster.local): dial error: timeout: dial tcp 10.43.12.7:5432: i/o timeout"
time=2026-11-17T10:19:59.409Z level=WARN msg="readyz: database ping failed" err="failed to connect to `user=relaybox database=relaybox`: 10.43.12.7:5432 (postgres-rw.databases.svc.cluster.local): dial error: timeout: dial tcp 10.43.12.7:5432: i/o timeout"
time=2026-11-17T10:20:09.417Z level=WARN msg="readyz: database ping failed" err="failed to connect to `user=relaybox database=relaybox`: 10.43.12.7:5432 (postgres-rw.databases.svc.cluster.local): dial error: timeout: dial tcp 10.43.12.7:5432: i/o timeout"
time=2026-11-17T10:20:19.421Z level=WARN msg="readyz: database ping failed" err="failed to connect to `user=relaybox database=relaybox`: 10.43.12.7:5432 (postgres-rw.databases.svc.cluster.local): dial error: timeout: dial tcp 10.43.12.7:5432: i/o timeout"
""")
    s.think("Readiness timeout=1s. The readyz handler pings the DB; logs show dial i/o timeout to 10.43.12.7:5432. The old pods use the same DB URL secret (relaybox-db) and work. i/o timeout = packets dropped, classic NetworkPolicy symptom. But first make the probe report the real status.")
    s.bash("grep -n -A12 'func (h \\*Handler) Readyz' internal/api/health.go", "Readyz handler",
           """31:func (h *Handler) Readyz(w http.ResponseWriter, r *http.Request) {
32-	ctx, cancel := context.WithTimeout(r.Context(), 3*time.Second)
33-	defer cancel()
34-	if err := h.pool.Ping(ctx); err != nil {
35-		h.log.Warn("readyz: database ping failed", "err", err)
36-		http.Error(w, "database unavailable", http.StatusServiceUnavailable)
37-		return
38-	}
39-	w.WriteHeader(http.StatusOK)
40-	_, _ = w.Write([]byte("ok"))
41-}""")
    s.say("`/readyz` pings the database with a 3s timeout, but the probe gives up after 1s, so the kubelet only "
          "sees a timeout. The underlying problem is the DB connection itself: `dial tcp 10.43.12.7:5432: i/o "
          "timeout`. That's a dropped packet, not a refused connection or bad credentials. Let me first make the "
          "probe timeout longer than the ping so the probe reports the real status, then chase the network side.")
    s.bash("helm upgrade relaybox deploy/helm/relaybox -n relaybox -f deploy/helm/values-staging.yaml "
           "--set image.tag=0.9.0 --set readinessProbe.timeoutSeconds=5 --wait=false && "
           "kubectl rollout status deployment/relaybox -n relaybox --timeout=120s",
           "Raise readiness probe timeout and retry rollout",
           """Release "relaybox" has been upgraded. Happy Helming!
NAME: relaybox
LAST DEPLOYED: Tue Nov 17 11:24:02 2026
NAMESPACE: relaybox
STATUS: deployed
REVISION: 18
TEST SUITE: None
Waiting for deployment "relaybox" rollout to finish: 1 out of 2 new replicas have been updated...
error: timed out waiting for the condition""", error=True, slow=125)
    s.bash("kubectl get events -n relaybox --field-selector reason=Unhealthy --sort-by=.lastTimestamp | tail -3",
           "Latest readiness failures",
           """LAST SEEN   TYPE      REASON      OBJECT                         MESSAGE
12s         Warning   Unhealthy   pod/relaybox-7b5d9c8f6-hw9kd   Readiness probe failed: HTTP probe failed with statuscode: 503
2s          Warning   Unhealthy   pod/relaybox-7b5d9c8f6-hw9kd   Readiness probe failed: HTTP probe failed with statuscode: 503""")
    s.say("Now the probe gets an answer: 503 from `/readyz` because the DB dial still times out. The old 0.8.3 pods "
          "reach the same Postgres fine, so something differs between old and new pods. Checking labels and "
          "network policies.")
    s.bash("kubectl get deploy relaybox -n relaybox -o jsonpath='{.spec.selector.matchLabels}{\"\\n\"}{.spec.strategy.rollingUpdate}{\"\\n\"}'",
           "Deployment selector and rollout strategy",
           """{"app.kubernetes.io/instance":"relaybox","app.kubernetes.io/name":"relaybox"}
{"maxSurge":1,"maxUnavailable":0}""")
    s.bash("kubectl get pods -n relaybox --show-labels", "Compare pod labels old vs new",
           """NAME                        READY   STATUS    RESTARTS   AGE     LABELS
relaybox-5f6b9d7c9-8kq2x    1/1     Running   0          6d2h    app.kubernetes.io/instance=relaybox,app.kubernetes.io/name=relaybox,app=relaybox,pod-template-hash=5f6b9d7c9
relaybox-5f6b9d7c9-tn4vz    1/1     Running   0          6d2h    app.kubernetes.io/instance=relaybox,app.kubernetes.io/name=relaybox,app=relaybox,pod-template-hash=5f6b9d7c9
relaybox-7b5d9c8f6-hw9kd    0/1     Running   0          2m40s   app.kubernetes.io/instance=relaybox,app.kubernetes.io/name=relaybox,pod-template-hash=7b5d9c8f6""")
    s.bash("kubectl get networkpolicy -A && kubectl get networkpolicy postgres-ingress -n databases -o yaml | sed -n '/^spec:/,$p'",
           "List network policies and show the Postgres ingress policy",
           """NAMESPACE   NAME                POD-SELECTOR                       AGE
databases   default-deny        <none>                             301d
databases   postgres-ingress    cnpg.io/cluster=postgres           301d
relaybox    allow-dns-egress    <none>                             248d
spec:
  ingress:
  - from:
    - namespaceSelector:
        matchLabels:
          kubernetes.io/metadata.name: relaybox
      podSelector:
        matchLabels:
          app: relaybox
    ports:
    - port: 5432
      protocol: TCP
  podSelector:
    matchLabels:
      cnpg.io/cluster: postgres
  policyTypes:
  - Ingress""")
    s.say("That's the difference. `databases/postgres-ingress` only admits pods from the `relaybox` namespace "
          "that carry the label `app: relaybox`. The old pods have it; the 0.9.0 pods don't, because a18d2f6 "
          "(\"chart: drop legacy app label, use app.kubernetes.io/* only\", #44) removed it from the pod "
          "template. Everything else is denied by `databases/default-deny`, which fits the silent i/o timeout. "
          "Let me confirm with two throwaway pods, one with each label set, without touching the deployment.")
    s.bash("kubectl run netcheck-legacy -n relaybox --rm -i --restart=Never --image=busybox:1.36 --labels=app=relaybox -- "
           "nc -zv -w 3 postgres-rw.databases.svc.cluster.local 5432; "
           "kubectl run netcheck-new -n relaybox --rm -i --restart=Never --image=busybox:1.36 "
           "--labels=app.kubernetes.io/name=relaybox -- nc -zv -w 3 postgres-rw.databases.svc.cluster.local 5432",
           "Test DB reachability with old vs new labels",
           """postgres-rw.databases.svc.cluster.local (10.43.12.7:5432) open
pod "netcheck-legacy" deleted
nc: postgres-rw.databases.svc.cluster.local (10.43.12.7:5432): Connection timed out
pod "netcheck-new" deleted
pod relaybox/netcheck-new terminated (Error)""", error=True, slow=12)
    s.upto("ready")
    s.mark("options")
    s.say("Confirmed: with `app=relaybox` the DB port is open, with only the `app.kubernetes.io/name` label it "
          "times out. Ways out:\n\n"
          "1. Change `postgres-ingress` to select `app.kubernetes.io/name: relaybox` (the right fix, but it's the "
          "platform team's policy).\n"
          "2. Re-add `app: relaybox` to the pod template in our chart (quick, partly reverts #44).\n"
          "3. Roll staging back to revision 16 (0.8.3) until one of the above is done.\n\n"
          "Which do you want?")
    s.user("none of those right now. the netpols in databases are platform's, argocd syncs them from the infra repo, "
           "so any hand edit gets reverted within minutes anyway. never kubectl edit anything in the databases "
           "namespace. and I don't want the legacy label back. I'll open a ticket with platform, can you draft a short text for it? leave "
           "staging as is, the old pods are serving")
    s.upto("options")
    s.say("Understood. Here's a draft for the platform ticket:\n\n"
          "> **relaybox 0.9.0 pods can't reach postgres-rw: postgres-ingress selects legacy label**\n"
          "> `databases/postgres-ingress` admits pods from namespace `relaybox` only with `app: relaybox`. Since "
          "relaybox chart 0.8.0 (relaybox #44) the pods carry only `app.kubernetes.io/name: relaybox` / "
          "`app.kubernetes.io/instance: relaybox`, so new pods time out on 10.43.12.7:5432 and never become Ready "
          "(staging rollout stuck at revision 18, old pods still serving). Verified with busybox `nc` from the "
          "relaybox namespace: `app=relaybox` → open, `app.kubernetes.io/name=relaybox` → timed out.\n"
          "> **Ask**: change the ingress podSelector to `app.kubernetes.io/name: relaybox` in the infra repo "
          "(or allow both labels during the transition). Prod will hit the same thing on the 0.9.0 rollout.")
    s.mark("summary")
    s.say("I won't touch the `databases` namespace or the chart labels, and staging stays as it is.\n\n"
          "**State of the 0.9.0 staging deploy (release `relaybox`, revision 18):**\n"
          "- Migration `20261113094210_deliveries_next_attempt` applied to the staging DB (via `make migrate-staging`).\n"
          "- Image `ghcr.io/mira-okafor/relaybox:0.9.0` built and pushed; tag `v0.9.0` pushed.\n"
          "- **Fixed**: CrashLoopBackOff. 0.9.0 exits when `RELAYBOX_HMAC_SECRET` is missing (e90c3b7), and the "
          "Secret `relaybox-secrets` (key `hmac-secret`) the chart references didn't exist in the `relaybox` "
          "namespace. Created it from 1Password (`op://staging/relaybox/hmac-secret`).\n"
          "- Readiness probe `timeoutSeconds` raised from 1 to 5 (revision 18) so the probe reports the real 503 "
          "instead of a client timeout. Note this was only a `--set`, it's not in values-staging.yaml yet.\n\n"
          "**Still OPEN**: the rollout is stuck: 1 new 0.9.0 pod is Running but not Ready, the 2 old 0.8.3 pods "
          "serve traffic. Diagnosis: `/readyz` returns 503 because the DB dial to `postgres-rw.databases` "
          "(10.43.12.7:5432) times out. The `databases/postgres-ingress` NetworkPolicy only allows pods labelled "
          "`app: relaybox`, and chart commit a18d2f6 (#44) dropped that label from the pod template, so 0.9.0 pods "
          "are blocked by `default-deny`. Confirmed with busybox `nc` pods (legacy label: open, new labels: timed "
          "out). Needs the platform team to change the policy's podSelector to `app.kubernetes.io/name: relaybox` "
          "in the infra repo; after that a `kubectl rollout restart deployment/relaybox -n relaybox` should finish "
          "the rollout. `kubectl rollout status` will keep timing out until then.")
    s.upto("summary")
    return s
