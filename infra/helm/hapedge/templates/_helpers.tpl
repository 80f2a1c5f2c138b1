{{/* The labels every object carries: the Kustomize base's, and Helm's own two. */}}
{{- define "hapedge.labels" -}}
app.kubernetes.io/part-of: hapedge
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* A component's selector labels (pass the component's name as .component). */}}
{{- define "hapedge.selector" -}}
app.kubernetes.io/name: hapedge
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* The image of the repository's Containerfile, tagged with the chart's appVersion unless image.tag says otherwise. */}}
{{- define "hapedge.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end }}

{{/* The restricted Pod Security Standard, for every pod. */}}
{{- define "hapedge.podSecurity" -}}
runAsNonRoot: true
runAsUser: {{ .Values.podUser }}
runAsGroup: {{ .Values.podUser }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "hapedge.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities:
    drop: [ALL]
{{- end }}

{{/* The connection settings, then the cluster token, read by `hapedge forward` and `hapedge agent` themselves (never in the process list). */}}
{{- define "hapedge.connectionEnv" -}}
envFrom:
  - configMapRef:
      name: hapedge-connection
env:
  - name: HAPEDGE_TOKEN
    valueFrom:
      secretKeyRef:
        name: {{ .Values.clusterToken.secretName }}
        key: {{ .Values.clusterToken.key }}
{{- end }}

{{/* Where `hapedge serve` and `hapedge gc` keep clusters: the bucket, and how to reach it. */}}
{{- define "hapedge.storeArgs" -}}
- --store={{ required "serve.store: s3://BUCKET[/PREFIX]" .Values.serve.store }}
{{- with .Values.serve.s3.endpoint }}
- --s3-endpoint={{ . }}
{{- end }}
{{- if .Values.serve.s3.forcePathStyle }}
- --s3-force-path-style
{{- end }}
{{- end }}

{{/* The bucket's region and credentials, and the deployment secret that seals content, from Secrets where given. */}}
{{- define "hapedge.storeEnv" -}}
{{- $s3 := .Values.serve.s3 -}}
- name: AWS_REGION
  value: {{ required "serve.s3.region: the bucket's region (any, us-east-1 say, for most S3-compatible servers)" $s3.region | quote }}
{{- with $s3.credentialsSecret }}
{{- range list "AWS_ACCESS_KEY_ID" "AWS_SECRET_ACCESS_KEY" }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ $s3.credentialsSecret }}
      key: {{ . }}
{{- end }}
{{- end }}
{{- with .Values.serve.tokensSecret }}
- name: HAPEDGE_SECRET
  valueFrom:
    secretKeyRef:
      name: {{ . }}
      key: HAPEDGE_SECRET
{{- end }}
{{- end }}
