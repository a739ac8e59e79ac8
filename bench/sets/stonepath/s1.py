from gen_base import CWD
README = r'''# stonepath infra

Terraform for the AWS side of the stonepath platform: networking, the Postgres
database and the ECS (Fargate) services that run quarry-api and the background
workers.

## Layout

```
modules/
  vpc/            VPC, subnets (3 AZ), NAT gateways, flow logs
  rds/            Postgres 16 instance, subnet group, security group
  ecs-cluster/    ECS cluster + capacity providers
  ecs-service/    generic Fargate service (task def, service, IAM, logs, autoscaling)
envs/
  staging/        account 418273906152, eu-west-1
  prod/           account 739105284417, eu-west-1
```

Each env is one root module with one state file (S3 backend
`stonepath-tfstate-eu1`, lock table `stonepath-tf-locks`). Variables live in
`envs/<env>/<env>.tfvars`, which is NOT auto-loaded: always pass `-var-file`.

## Workflow

- `pre-commit install` once; the hooks run `terraform fmt`, `terraform validate`
  and `tflint` (config in `.tflint.hcl`).
- Every PR gets a `terraform plan` for staging and prod from
  `.github/workflows/terraform-plan.yml`; the plan is posted as a PR comment.
- Merging to `main` runs the `apply` job for prod, gated by the `production`
  environment approval. Staging can be applied from a laptop with the
  `stonepath-staging-admin` profile.

## Versions

Terraform >= 1.9, AWS provider 5.x (see `envs/*/versions.tf`).
'''

VERSIONS = r'''==> envs/staging/versions.tf <==
terraform {
  required_version = ">= 1.9.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.62"
    }
  }
}

provider "aws" {
  region  = "eu-west-1"
  profile = "stonepath-staging-admin"

  default_tags {
    tags = {
      Project     = "stonepath"
      Environment = "staging"
      ManagedBy   = "terraform"
    }
  }
}

==> envs/staging/backend.tf <==
terraform {
  backend "s3" {
    bucket         = "stonepath-tfstate-eu1"
    key            = "staging/terraform.tfstate"
    region         = "eu-west-1"
    dynamodb_table = "stonepath-tf-locks"
    encrypt        = true
    profile        = "stonepath-staging-admin"
  }
}'''

RDS_MAIN = r'''resource "aws_db_subnet_group" "this" {
  name       = "${var.name}-pg"
  subnet_ids = var.subnet_ids
}

resource "aws_security_group" "this" {
  name        = "${var.name}-pg"
  description = "Postgres access for ${var.name}"
  vpc_id      = var.vpc_id
}

resource "aws_vpc_security_group_ingress_rule" "legacy" {
  for_each = toset(var.legacy_ingress_cidrs)

  security_group_id = aws_security_group.this.id
  cidr_ipv4         = each.value
  from_port         = 5432
  to_port           = 5432
  ip_protocol       = "tcp"
  description       = "legacy cidr access"
}

resource "aws_db_instance" "this" {
  identifier     = "${var.name}-pg"
  engine         = "postgres"
  engine_version = var.engine_version
  instance_class = var.instance_class

  allocated_storage     = var.allocated_storage
  max_allocated_storage = var.max_allocated_storage
  storage_type          = "gp3"
  storage_encrypted     = true

  db_name                     = "stonepath"
  username                    = "stonepath_admin"
  manage_master_user_password = true

  db_subnet_group_name   = aws_db_subnet_group.this.name
  vpc_security_group_ids = [aws_security_group.this.id]
  parameter_group_name   = "default.postgres16"
  multi_az               = var.multi_az

  backup_retention_period = var.backup_retention_days
  deletion_protection     = var.deletion_protection
  skip_final_snapshot     = false
  final_snapshot_identifier = "${var.name}-pg-final"

  performance_insights_enabled = true

  lifecycle {
    ignore_changes = [allocated_storage]
  }
}'''

RDS_VARS = r'''variable "name" {
  type        = string
  description = "Prefix for resource names, e.g. stonepath-staging"
}

variable "vpc_id" {
  type = string
}

variable "subnet_ids" {
  type = list(string)
}

variable "engine_version" {
  type    = string
  default = "16.4"
}

variable "instance_class" {
  type = string
}

variable "allocated_storage" {
  type    = number
  default = 100
}

variable "max_allocated_storage" {
  type    = number
  default = 200
}

variable "multi_az" {
  type    = bool
  default = false
}

variable "backup_retention_days" {
  type    = number
  default = 7
}

variable "deletion_protection" {
  type    = bool
  default = true
}

variable "legacy_ingress_cidrs" {
  type        = list(string)
  default     = []
  description = "Individual CIDRs allowed to reach 5432 (pre-SG-reference era)"
}'''

PG_TF = '''resource "aws_db_parameter_group" "this" {
  name        = "${var.name}-pg16"
  family      = var.parameter_family
  description = "${var.name} postgres16 parameters"

  parameter {
    name         = "log_min_duration_statement"
    value        = tostring(var.log_min_duration_ms)
    apply_method = "immediate"
  }

  parameter {
    name  = "log_lock_waits"
    value = "1"
    apply_method = "immediate"
  }

  lifecycle {
    create_before_destroy = true
  }
}
'''

PLAN1_ERR = r'''
Error: No value for required variable

  on variables.tf line 61:
  61: variable "rds_log_min_duration_ms" {

The root module input variable "rds_log_min_duration_ms" is not set, and has
no default value. Use a -var or -var-file command line argument to provide a
value for this variable.'''

REFRESH_STAGING = r'''module.vpc.aws_vpc.this: Refreshing state... [id=vpc-0a41c2e7d93b5f018]
module.vpc.aws_eip.nat["eu-west-1a"]: Refreshing state... [id=eipalloc-03c9e1f7a24b6d815]
module.vpc.aws_internet_gateway.this: Refreshing state... [id=igw-07c1d95ae2b3f4410]
module.vpc.aws_subnet.private["eu-west-1a"]: Refreshing state... [id=subnet-0d2f7a91c4be38e51]
module.vpc.aws_subnet.private["eu-west-1b"]: Refreshing state... [id=subnet-05b86e3a1f09d2c77]
module.vpc.aws_subnet.private["eu-west-1c"]: Refreshing state... [id=subnet-0e93c1b7d54a82f06]
module.vpc.aws_subnet.public["eu-west-1a"]: Refreshing state... [id=subnet-0f14a6c83e9d27b5a]
module.vpc.aws_subnet.public["eu-west-1b"]: Refreshing state... [id=subnet-0a7d52e1b9c4f3068]
module.vpc.aws_subnet.public["eu-west-1c"]: Refreshing state... [id=subnet-06e2b8d4f1a97c35d]
module.vpc.aws_nat_gateway.this["eu-west-1a"]: Refreshing state... [id=nat-0b84f2d6e19a3c571]
module.vpc.aws_flow_log.this: Refreshing state... [id=fl-0c3a9e5d71b2f4086]
module.ecs_cluster.aws_ecs_cluster.this: Refreshing state... [id=arn:aws:ecs:eu-west-1:418273906152:cluster/stonepath-staging]
module.rds.aws_db_subnet_group.this: Refreshing state... [id=stonepath-staging-pg]
module.rds.aws_security_group.this: Refreshing state... [id=sg-0b3f6e29d1a47c805]
module.rds.aws_db_instance.this: Refreshing state... [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE]
module.quarry_api.aws_cloudwatch_log_group.this: Refreshing state... [id=/ecs/stonepath-staging/quarry-api]
module.quarry_api.aws_iam_role.task: Refreshing state... [id=stonepath-staging-quarry-api-task]
module.quarry_api.aws_iam_role.execution: Refreshing state... [id=stonepath-staging-quarry-api-exec]
module.quarry_api.aws_security_group.this: Refreshing state... [id=sg-04d7a1c9e3b58f260]
module.quarry_api.aws_ecs_task_definition.this: Refreshing state... [id=stonepath-staging-quarry-api]
module.quarry_api.aws_ecs_service.this: Refreshing state... [id=arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/quarry-api]
module.quarry_api.aws_appautoscaling_target.this: Refreshing state... [id=service/stonepath-staging/quarry-api]
module.quarry_api.aws_appautoscaling_policy.cpu[0]: Refreshing state... [id=quarry-api-cpu]'''

PLAN1_OK = REFRESH_STAGING + r'''

Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
  ~ update in-place

Terraform will perform the following actions:

  # module.rds.aws_db_instance.this will be updated in-place
  ~ resource "aws_db_instance" "this" {
        id                                    = "db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE"
        identifier                            = "stonepath-staging-pg"
      ~ parameter_group_name                  = "default.postgres16" -> "stonepath-staging-pg16"
        tags                                  = {}
        # (63 unchanged attributes hidden)
    }

  # module.rds.aws_db_parameter_group.this will be created
  + resource "aws_db_parameter_group" "this" {
      + arn          = (known after apply)
      + description  = "stonepath-staging postgres16 parameters"
      + family       = "postgres16"
      + id           = (known after apply)
      + name         = "stonepath-staging-pg16"
      + name_prefix  = (known after apply)
      + skip_destroy = false
      + tags_all     = {
          + "Environment" = "staging"
          + "ManagedBy"   = "terraform"
          + "Project"     = "stonepath"
        }

      + parameter {
          + apply_method = "immediate"
          + name         = "log_lock_waits"
          + value        = "1"
        }
      + parameter {
          + apply_method = "immediate"
          + name         = "log_min_duration_statement"
          + value        = "500"
        }
    }

Plan: 1 to add, 1 to change, 0 to destroy.

─────────────────────────────────────────────────────────────────────────────

Saved the plan to: staging.tfplan

To perform exactly these actions, run the following command to apply:
    terraform apply "staging.tfplan"'''

APPLY1 = r'''module.rds.aws_db_parameter_group.this: Creating...
module.rds.aws_db_parameter_group.this: Creation complete after 2s [id=stonepath-staging-pg16]
module.rds.aws_db_instance.this: Modifying... [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE]
module.rds.aws_db_instance.this: Still modifying... [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE, 10s elapsed]
module.rds.aws_db_instance.this: Still modifying... [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE, 20s elapsed]
module.rds.aws_db_instance.this: Still modifying... [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE, 30s elapsed]
module.rds.aws_db_instance.this: Modifications complete after 34s [id=db-5QH2XK7VNB3LRTYJ4MCZ6W8DPE]

Apply complete! Resources: 1 added, 1 changed, 0 destroyed.'''

HOOK_FAIL = r'''Terraform fmt............................................................Failed
- hook id: terraform_fmt
- files were modified by this hook

modules/rds/parameter_group.tf

Terraform validate.......................................................Passed
Terraform validate with tflint...........................................Failed
- hook id: terraform_tflint
- exit code: 2

Command 'tflint --init' successfully done:
Plugin "aws" is already installed


TFLint in modules/rds/:
1 issue(s) found:

Warning: variable "log_connections" is declared but not used (terraform_unused_declarations)

  on variables.tf line 71:
  71: variable "log_connections" {

Reference: https://github.com/terraform-linters/tflint-ruleset-terraform/blob/v0.9.1/docs/rules/terraform_unused_declarations.md

check for merge conflicts................................................Passed
trim trailing whitespace.................................................Passed
fix end of files.........................................................Passed'''

HOOK_OK = r'''Terraform fmt............................................................Passed
Terraform validate.......................................................Passed
Terraform validate with tflint...........................................Passed
check for merge conflicts................................................Passed
trim trailing whitespace.................................................Passed
fix end of files.........................................................Passed
[feat/rds-slowlog 4c1e9a2] rds: custom pg16 parameter group with slow query logging
 5 files changed, 47 insertions(+), 1 deletion(-)
 create mode 100644 modules/rds/parameter_group.tf'''


def build_s1(Session):
    s = Session(101, "2026-11-09T09:12:04.311", "main")
    s.user("new repo for you. have a look around first, then I want slow query logging on the staging postgres, anything over 500ms", mark="s1_ask")
    s.say("I'll start with the README and the layout of the repo.")
    s.bash("cat README.md", "Show README", README, mark="s1_readme")
    s.bash("find . -name '*.tf' -not -path '*/.terraform/*' | sort", "List Terraform files",
           "./envs/prod/backend.tf\n./envs/prod/main.tf\n./envs/prod/outputs.tf\n./envs/prod/services.tf\n./envs/prod/variables.tf\n./envs/prod/versions.tf\n./envs/staging/backend.tf\n./envs/staging/main.tf\n./envs/staging/outputs.tf\n./envs/staging/queues.tf\n./envs/staging/services.tf\n./envs/staging/variables.tf\n./envs/staging/versions.tf\n./modules/ecs-cluster/main.tf\n./modules/ecs-cluster/outputs.tf\n./modules/ecs-cluster/variables.tf\n./modules/ecs-service/autoscaling.tf\n./modules/ecs-service/iam.tf\n./modules/ecs-service/main.tf\n./modules/ecs-service/outputs.tf\n./modules/ecs-service/variables.tf\n./modules/ecs-service/versions.tf\n./modules/rds/main.tf\n./modules/rds/outputs.tf\n./modules/rds/variables.tf\n./modules/vpc/flowlogs.tf\n./modules/vpc/main.tf\n./modules/vpc/outputs.tf\n./modules/vpc/variables.tf")
    s.bash("head -n 40 envs/staging/versions.tf envs/staging/backend.tf", "Show provider and backend config", VERSIONS, mark="s1_versions")
    s.read(CWD + "/modules/rds/main.tf", RDS_MAIN)
    s.read(CWD + "/modules/rds/variables.tf", RDS_VARS)
    s.bash("grep -n 'module \"rds\"' -A 16 envs/staging/main.tf", "Show how staging calls the rds module",
           '24:module "rds" {\n25-  source = "../../modules/rds"\n26-\n27-  name                  = "stonepath-staging"\n28-  vpc_id                = module.vpc.vpc_id\n29-  subnet_ids            = module.vpc.private_subnet_ids\n30-  instance_class        = var.rds_instance_class\n31-  allocated_storage     = 100\n32-  max_allocated_storage = 200\n33-  multi_az              = false\n34-  backup_retention_days = 3\n35-  deletion_protection   = false\n36-\n37-  legacy_ingress_cidrs = var.rds_legacy_ingress_cidrs\n38-}')
    s.think("The instance uses default.postgres16, which can't be modified. To set log_min_duration_statement I need a custom aws_db_parameter_group in the rds module, family postgres16, and point parameter_group_name at it. The threshold should be a module variable so prod can set a different value later. Switching the parameter group on an instance puts it in pending-reboot until the instance is rebooted; log_min_duration_statement is dynamic but the association itself only takes effect after a reboot. I should tell Priya that.")
    s.say("Here's what I found:\n\n- Root modules per env (`envs/staging`, `envs/prod`), one state each in the S3 backend `stonepath-tfstate-eu1`, vars in `<env>.tfvars` that must be passed with `-var-file`.\n- The rds module pins `parameter_group_name = \"default.postgres16\"`. Default parameter groups can't be edited, so slow query logging needs a custom `aws_db_parameter_group`.\n\nPlan:\n1. `modules/rds/parameter_group.tf`: a `postgres16` parameter group with `log_min_duration_statement` (from a new `log_min_duration_ms` variable) and `log_lock_waits = 1`.\n2. Point the instance at it.\n3. Wire a `rds_log_min_duration_ms` variable through `envs/staging` and set it to 500.\n\nOne caveat: attaching a new parameter group to an existing instance leaves it in `pending-reboot` until the DB restarts. The parameter itself is dynamic, but the association needs that reboot.")
    s.end_turn()
    s.user("ok go. branch off main for everything, and never run apply in envs/prod from here. prod only goes through the actions apply job. staging applies from your side are fine", mark="s1_conv")
    s.bash("git checkout -b feat/rds-slowlog", "Create feature branch", "Switched to a new branch 'feat/rds-slowlog'")
    s.branch = "feat/rds-slowlog"
    s.write(CWD + "/modules/rds/parameter_group.tf", PG_TF)
    s.edit(CWD + "/modules/rds/main.tf", '  parameter_group_name   = "default.postgres16"', '  parameter_group_name   = aws_db_parameter_group.this.name',
           '  vpc_security_group_ids = [aws_security_group.this.id]\n  parameter_group_name   = aws_db_parameter_group.this.name\n  multi_az               = var.multi_az')
    s.edit(CWD + "/modules/rds/variables.tf", 'variable "legacy_ingress_cidrs" {',
           'variable "parameter_family" {\n  type    = string\n  default = "postgres16"\n}\n\nvariable "log_min_duration_ms" {\n  type        = number\n  default     = -1\n  description = "log_min_duration_statement in ms; -1 disables"\n}\n\nvariable "log_connections" {\n  type    = bool\n  default = false\n}\n\nvariable "legacy_ingress_cidrs" {')
    s.edit(CWD + "/envs/staging/main.tf", '  legacy_ingress_cidrs = var.rds_legacy_ingress_cidrs\n}',
           '  legacy_ingress_cidrs = var.rds_legacy_ingress_cidrs\n  log_min_duration_ms  = var.rds_log_min_duration_ms\n}')
    s.bash("cat >> envs/staging/variables.tf <<'TF'\n\nvariable \"rds_log_min_duration_ms\" {\n  type        = number\n  description = \"Slow query threshold for the staging database (ms)\"\n}\nTF", "Add staging variable for the threshold", "")
    s.bash("cd envs/staging && terraform init -input=false", "Init staging root module",
           "Initializing the backend...\nInitializing modules...\nInitializing provider plugins...\n- Reusing previous version of hashicorp/aws from the dependency lock file\n- Using previously-installed hashicorp/aws v5.62.0\n\nTerraform has been successfully initialized!", secs=9)
    s.bash("cd envs/staging && terraform plan -var-file=staging.tfvars", "Plan staging", PLAN1_ERR, err=True, mark="s1_planfail", secs=12)
    s.say("The plan stops before refreshing anything: I declared `rds_log_min_duration_ms` in `envs/staging/variables.tf` without a default and didn't add it to `staging.tfvars`. Adding the value there.")
    s.bash("grep -n 'rds_' envs/staging/staging.tfvars", "Show rds values in staging.tfvars",
           '7:rds_instance_class = "db.t4g.medium"\n8:rds_legacy_ingress_cidrs = [\n68:]')
    s.bash("printf '\\nrds_log_min_duration_ms = 500\\n' >> envs/staging/staging.tfvars && tail -n 3 envs/staging/staging.tfvars", "Set threshold in staging.tfvars",
           ']\n\nrds_log_min_duration_ms = 500', mark="s1_tfvars")
    s.bash("cd envs/staging && terraform plan -input=false -var-file=staging.tfvars -out=staging.tfplan", "Plan staging and save the plan", PLAN1_OK, mark="s1_planok", secs=48)
    s.say("Plan is clean: 1 to add (the parameter group `stonepath-staging-pg16`), 1 in-place change (the instance's `parameter_group_name` moves off `default.postgres16`). Nothing else in staging drifts. Saved to `staging.tfplan`. Apply it?")
    s.end_turn()
    s.user("apply. I'll reboot the staging db myself tonight")
    s.bash("cd envs/staging && terraform apply staging.tfplan", "Apply saved staging plan", APPLY1, secs=45, mark="s1_apply")
    s.bash("aws rds describe-db-instances --profile stonepath-staging-admin --db-instance-identifier stonepath-staging-pg --query 'DBInstances[0].DBParameterGroups'", "Check parameter group status",
           '[\n    {\n        "DBParameterGroupName": "stonepath-staging-pg16",\n        "ParameterApplyStatus": "pending-reboot"\n    }\n]')
    s.say("Applied. As expected the instance shows `stonepath-staging-pg16` with `ParameterApplyStatus: pending-reboot`; after your reboot tonight statements over 500 ms will show up in the Postgres log. Committing now.")
    s.bash("git add -A && git commit -m 'rds: custom pg16 parameter group with slow query logging'", "Commit the change", HOOK_FAIL, err=True, mark="s1_hookfail", secs=14)
    s.say("The pre-commit hook rejected the commit for two reasons:\n- `terraform_fmt` rewrote `modules/rds/parameter_group.tf`: the `log_lock_waits` block wasn't aligned.\n- tflint `terraform_unused_declarations`: I added a `log_connections` variable that nothing uses. I'll remove it rather than wire up a setting you didn't ask for.")
    s.bash("git diff modules/rds/parameter_group.tf", "See what fmt changed",
           'diff --git a/modules/rds/parameter_group.tf b/modules/rds/parameter_group.tf\nindex 3b1f0e2..9a64c7d 100644\n--- a/modules/rds/parameter_group.tf\n+++ b/modules/rds/parameter_group.tf\n@@ -12,7 +12,7 @@ resource "aws_db_parameter_group" "this" {\n   }\n \n   parameter {\n-    name  = "log_lock_waits"\n-    value = "1"\n+    name         = "log_lock_waits"\n+    value        = "1"\n     apply_method = "immediate"\n   }')
    s.edit(CWD + "/modules/rds/variables.tf", 'variable "log_connections" {\n  type    = bool\n  default = false\n}\n\n', '',
           'variable "log_min_duration_ms" {\n  type        = number\n  default     = -1\n  description = "log_min_duration_statement in ms; -1 disables"\n}\n\nvariable "legacy_ingress_cidrs" {')
    s.bash("terraform fmt -recursive && git add -A && git commit -m 'rds: custom pg16 parameter group with slow query logging'", "Format and commit again", HOOK_OK, mark="s1_commit", secs=16)
    s.end_turn()
    s.user("in future run terraform fmt -recursive before every commit so the hook doesn't bounce. push + PR", mark="s1_fmtconv")
    s.bash("git push -u origin feat/rds-slowlog && gh pr create --fill --base main", "Push and open PR",
           "Enumerating objects: 17, done.\nCounting objects: 100% (17/17), done.\nDelta compression using up to 8 threads\nCompressing objects: 100% (9/9), done.\nWriting objects: 100% (10/10), 1.71 KiB | 1.71 MiB/s, done.\nTotal 10 (delta 6), reused 0 (delta 0), pack-reused 0\nremote: Resolving deltas: 100% (6/6), completed with 6 local objects.\nTo github.com:stonepath-eng/stonepath-infra.git\n * [new branch]      feat/rds-slowlog -> feat/rds-slowlog\nbranch 'feat/rds-slowlog' set up to track 'origin/feat/rds-slowlog'.\n\nCreating pull request for feat/rds-slowlog into main in stonepath-eng/stonepath-infra\n\nhttps://github.com/stonepath-eng/stonepath-infra/pull/212", secs=8)
    s.say("Noted: I'll run `terraform fmt -recursive` before every commit from now on.\n\nSummary:\n- New `modules/rds/parameter_group.tf`: `aws_db_parameter_group` `<name>-pg16` (family `postgres16`) with `log_min_duration_statement` from the new `log_min_duration_ms` module variable (default -1 = off) and `log_lock_waits = 1`. The instance now uses it instead of `default.postgres16`.\n- `envs/staging`: new `rds_log_min_duration_ms` variable, set to 500 in `staging.tfvars`.\n- The first `terraform plan -var-file=staging.tfvars` failed with *No value for required variable* (the value was missing from staging.tfvars). After adding it, `terraform plan -input=false -var-file=staging.tfvars -out=staging.tfplan` gave 1 add / 1 change, and that plan is applied to staging.\n- Staging DB: `pending-reboot` until your reboot tonight.\n- Pre-commit first failed on fmt alignment and an unused `log_connections` variable (tflint). Fixed, committed as 4c1e9a2 on `feat/rds-slowlog`, PR #212. The Actions plan for prod will show the same 1 add / 1 change with `log_min_duration_ms = -1` until prod sets its own value.", mark="s1_summary", end=True)
    return s
