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
