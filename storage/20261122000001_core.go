package storage

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

func registerCore(m *migrate.Migrations) { m.MustRegister(migrateCore, noDown) }

// The rows of the first release (stop 4), frozen: the tables below are created exactly so,
// and the later migrations change them.

type coreMeta struct {
	bun.BaseModel `bun:"table:lokal_meta"`
	Name          string `bun:"name,pk"`
	Value         string `bun:"value,notnull"`
}

type coreRevision struct {
	bun.BaseModel `bun:"table:lokal_revision"`
	ID            int64 `bun:"id,pk"`
	Value         int64 `bun:"value,notnull"`
}

type coreWorkspace struct {
	bun.BaseModel `bun:"table:workspaces"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	Name          string    `bun:"name,notnull"`
	PublicToken   string    `bun:"public_token,notnull,unique"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreUser struct {
	bun.BaseModel `bun:"table:users"`
	ID            string    `bun:"id,pk,type:varchar(36)"`
	WorkspaceID   string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Email         string    `bun:"email,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreProject struct {
	bun.BaseModel   `bun:"table:projects"`
	ID              string    `bun:"id,pk,type:varchar(36)"`
	WorkspaceID     string    `bun:"workspace_id,notnull,type:varchar(36)"`
	Title           string    `bun:"title,notnull"`
	SourceLanguage  string    `bun:"source_language,notnull"`
	IntegrationType string    `bun:"integration_type,notnull"`
	Active          bool      `bun:"active,notnull"`
	Revision        int64     `bun:"revision,notnull"`
	AllowedOrigins  string    `bun:"allowed_origins,notnull"`
	ShowSwitcher    bool      `bun:"show_switcher,notnull"`
	KeepSiteCurrent bool      `bun:"keep_site_current,notnull"`
	EmbedMode       string    `bun:"embed_mode,notnull"`
	JITHarvest      bool      `bun:"jit_harvest,notnull"`
	AutoApply       bool      `bun:"auto_apply,notnull"`
	AIProvider      string    `bun:"ai_provider,notnull"`
	AIModel         string    `bun:"ai_model,notnull"`
	AIBaseURL       string    `bun:"ai_base_url,notnull"`
	AIKey           string    `bun:"ai_key,notnull"`
	DeployProvider  string    `bun:"deploy_provider,notnull"`
	DeployRepo      string    `bun:"deploy_repo,notnull"`
	DeployWorkflow  string    `bun:"deploy_workflow,notnull"`
	DeployRef       string    `bun:"deploy_ref,notnull"`
	DeployToken     string    `bun:"deploy_token,notnull"`
	CreatedAt       time.Time `bun:"created_at,notnull"`
	UpdatedAt       time.Time `bun:"updated_at,notnull"`
}

type coreLanguage struct {
	bun.BaseModel `bun:"table:project_languages"`
	ProjectID     string    `bun:"project_id,pk,type:varchar(36)"`
	Code          string    `bun:"code,pk"`
	Enabled       bool      `bun:"enabled,notnull"`
	Editable      bool      `bun:"editable,notnull"`
	AutoTranslate bool      `bun:"auto_translate,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreNamespace struct {
	bun.BaseModel `bun:"table:namespaces"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Key           string    `bun:"key,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreKey struct {
	bun.BaseModel `bun:"table:translation_keys"`
	ID            int64     `bun:"id,pk,autoincrement"`
	NamespaceID   int64     `bun:"namespace_id,notnull"`
	Key           string    `bun:"key,notnull"`
	KeyHash       string    `bun:"key_hash,notnull"`
	Hidden        bool      `bun:"hidden,notnull"`
	SourceVersion int64     `bun:"source_version,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
	UpdatedAt     time.Time `bun:"updated_at,notnull"`
}

type coreTranslation struct {
	bun.BaseModel  `bun:"table:translations"`
	ID             int64     `bun:"id,pk,autoincrement"`
	KeyID          int64     `bun:"key_id,notnull"`
	Language       string    `bun:"language,notnull"`
	Value          string    `bun:"value,notnull"`
	Status         string    `bun:"status,notnull"`
	DoNotTranslate bool      `bun:"do_not_translate,notnull"`
	LanguageLocked bool      `bun:"language_locked,notnull"`
	SourceVersion  *int64    `bun:"source_version"`
	UpdatedBy      string    `bun:"updated_by,notnull"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
	UpdatedAt      time.Time `bun:"updated_at,notnull"`
}

type coreHistory struct {
	bun.BaseModel  `bun:"table:translation_history"`
	ID             int64     `bun:"id,pk,autoincrement"`
	TranslationID  int64     `bun:"translation_id,notnull"`
	KeyID          int64     `bun:"key_id,notnull"`
	Language       string    `bun:"language,notnull"`
	Change         string    `bun:"change,notnull"`
	Value          string    `bun:"value,notnull"`
	Status         string    `bun:"status,notnull"`
	DoNotTranslate bool      `bun:"do_not_translate,notnull"`
	LanguageLocked bool      `bun:"language_locked,notnull"`
	SourceVersion  *int64    `bun:"source_version"`
	Actor          string    `bun:"actor,notnull"`
	CreatedAt      time.Time `bun:"created_at,notnull"`
}

type coreComment struct {
	bun.BaseModel `bun:"table:comments"`
	ID            int64     `bun:"id,pk,autoincrement"`
	KeyID         int64     `bun:"key_id,notnull"`
	Language      string    `bun:"language,notnull"`
	Body          string    `bun:"body,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreGlossary struct {
	bun.BaseModel `bun:"table:glossary_terms"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	SourceTerm    string    `bun:"source_term,notnull"`
	TargetTerm    string    `bun:"target_term,notnull"`
	Locale        string    `bun:"locale,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreDNTTerm struct {
	bun.BaseModel `bun:"table:do_not_translate_terms"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Term          string    `bun:"term,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreSubstitution struct {
	bun.BaseModel `bun:"table:substitution_rules"`
	ID            int64     `bun:"id,pk,autoincrement"`
	ProjectID     string    `bun:"project_id,notnull,type:varchar(36)"`
	Locale        string    `bun:"locale,notnull"`
	Pattern       string    `bun:"pattern,notnull"`
	Replacement   string    `bun:"replacement,notnull"`
	Actor         string    `bun:"actor,notnull"`
	CreatedAt     time.Time `bun:"created_at,notnull"`
}

type coreToken struct {
	bun.BaseModel `bun:"table:tokens"`
	ID            string     `bun:"id,pk,type:varchar(36)"`
	Kind          string     `bun:"kind,notnull"`
	Hash          string     `bun:"hash,notnull,unique"`
	UserID        string     `bun:"user_id,notnull"`
	WorkspaceID   string     `bun:"workspace_id,notnull"`
	ProjectID     string     `bun:"project_id,notnull"`
	ReadOnly      bool       `bun:"read_only,notnull"`
	CreatedAt     time.Time  `bun:"created_at,notnull"`
	RevokedAt     *time.Time `bun:"revoked_at"`
}

// migrateCore creates the first release's tables, the key that hashes tokens and the
// revision counter.
func migrateCore(ctx context.Context, db *bun.DB) error {
	return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		const (
			toWorkspaces = `("workspace_id") REFERENCES "workspaces" ("id")`
			toProjects   = `("project_id") REFERENCES "projects" ("id")`
			toKeys       = `("key_id") REFERENCES "translation_keys" ("id")`
		)
		if err := createTables(ctx, tx, []table{
			{(*coreMeta)(nil), nil},
			{(*coreRevision)(nil), nil},
			{(*coreWorkspace)(nil), nil},
			{(*coreUser)(nil), []string{toWorkspaces}},
			{(*coreProject)(nil), []string{toWorkspaces}},
			{(*coreLanguage)(nil), []string{toProjects}},
			{(*coreNamespace)(nil), []string{toProjects}},
			{(*coreKey)(nil), []string{`("namespace_id") REFERENCES "namespaces" ("id")`}},
			{(*coreTranslation)(nil), []string{toKeys}},
			{(*coreHistory)(nil), nil},
			{(*coreComment)(nil), []string{toKeys}},
			{(*coreGlossary)(nil), []string{toProjects}},
			{(*coreDNTTerm)(nil), []string{toProjects}},
			{(*coreSubstitution)(nil), []string{toProjects}},
			{(*coreToken)(nil), nil},
		}); err != nil {
			return err
		}
		if err := createIndexes(ctx, tx, []index{
			{"users", "users_workspace_email", true, []string{"workspace_id", "email"}},
			{"projects", "projects_workspace", false, []string{"workspace_id"}},
			{"projects", "projects_revision", false, []string{"revision"}},
			{"namespaces", "namespaces_project_key", true, []string{"project_id", "key"}},
			// Keys may outgrow a btree entry: their hash is what is unique.
			{"translation_keys", "keys_namespace_hash", true, []string{"namespace_id", "key_hash"}},
			{"translations", "translations_key_language", true, []string{"key_id", "language"}},
			{"translations", "translations_updated", false, []string{"updated_at"}},
			{"translation_history", "history_key_language", false, []string{"key_id", "language", "id"}},
			{"translation_history", "history_created", false, []string{"created_at"}},
			{"comments", "comments_key_language", false, []string{"key_id", "language"}},
			{"glossary_terms", "glossary_project", false, []string{"project_id"}},
			{"do_not_translate_terms", "dnt_project", false, []string{"project_id"}},
			{"substitution_rules", "substitutions_project", false, []string{"project_id"}},
			{"tokens", "tokens_project", false, []string{"project_id"}},
		}); err != nil {
			return err
		}
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return err
		}
		if _, err := tx.NewInsert().Model(&coreMeta{Name: metaTokenKey, Value: hex.EncodeToString(secret)}).
			On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("storing token key: %w", err)
		}
		if _, err := tx.NewInsert().Model(&coreRevision{ID: 1}).On("CONFLICT DO NOTHING").Exec(ctx); err != nil {
			return fmt.Errorf("storing revision counter: %w", err)
		}
		return nil
	})
}

// metaTokenKey names the lokal_meta row holding the key that hashes tokens.
const metaTokenKey = "token_key"
