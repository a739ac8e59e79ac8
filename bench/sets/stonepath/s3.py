from gen_base import CWD
import hashlib

def _h(x):
    return hashlib.sha1(x.encode()).hexdigest()[:16]

LOCK_ERR = r'''╷
│ Error: Inconsistent dependency lock file
│
│ The following dependency selections recorded in the lock file are
│ inconsistent with the current configuration:
│   - provider registry.terraform.io/hashicorp/aws: locked version selection 5.62.0 doesn't match the updated version constraints "~> 5.62, >= 5.80.0"
│
│ To update the locked dependency selections to match a changed
│ configuration, run:
│   terraform init -upgrade
╵'''

JENKINS = ["10.12.7.%d/32" % i for i in range(21, 40)]

def legacy_destroy(ip):
    return '''  # module.rds.aws_vpc_security_group_ingress_rule.legacy["%s"] will be destroyed
  # (because key ["%s"] is not in for_each map)
  - resource "aws_vpc_security_group_ingress_rule" "legacy" {
      - arn                    = "arn:aws:ec2:eu-west-1:418273906152:security-group-rule/sgr-0%s" -> null
      - cidr_ipv4              = "%s" -> null
      - description            = "legacy cidr access" -> null
      - from_port              = 5432 -> null
      - ip_protocol            = "tcp" -> null
      - security_group_id      = "sg-0b3f6e29d1a47c805" -> null
      - to_port                = 5432 -> null
        # (2 unchanged attributes hidden)
    }
''' % (ip, ip, _h(ip), ip)

TARGET_APPLY_HEAD = r'''module.rds.aws_security_group.this: Refreshing state... [id=sg-0b3f6e29d1a47c805]
''' + "".join('module.rds.aws_vpc_security_group_ingress_rule.legacy["%s"]: Refreshing state...\n' % ip for ip in JENKINS[:4]) + '''...

Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  - destroy

Terraform will perform the following actions:

''' + "\n".join(legacy_destroy(ip) for ip in JENKINS[:3]) + '''
  ... (16 more identical destroys for 10.12.7.24/32 - 10.12.7.39/32)

Plan: 0 to add, 0 to change, 19 to destroy.
╷
│ Warning: Resource targeting is in effect
│
│ You are creating a plan with the -target option, which means that the
│ result of this plan may not represent all of the changes requested by the
│ current configuration.
│
│ The -target option is not for routine use, and is provided only for
│ exceptional situations such as recovering from errors or mistakes, or when
│ Terraform specifically suggests to use it as part of an error message.
╵
''' + "".join('module.rds.aws_vpc_security_group_ingress_rule.legacy["%s"]: Destroying... [id=sgr-0%s]\n' % (ip, _h(ip + "x")) for ip in JENKINS[:3]) + '''...
module.rds.aws_vpc_security_group_ingress_rule.legacy["10.12.7.39/32"]: Destruction complete after 1s

Apply complete! Resources: 0 added, 0 changed, 19 destroyed.'''

PLAN3 = r'''Terraform used the selected providers to generate the following execution
plan. Resource actions are indicated with the following symbols:
  + create
  ~ update in-place

Terraform will perform the following actions:

  # aws_vpc_security_group_ingress_rule.rds_from_cairn_worker will be created
  + resource "aws_vpc_security_group_ingress_rule" "rds_from_cairn_worker" {
      + arn                          = (known after apply)
      + description                  = "cairn-worker tasks"
      + from_port                    = 5432
      + id                           = (known after apply)
      + ip_protocol                  = "tcp"
      + referenced_security_group_id = "sg-09a2e5c71d4b83f6e"
      + security_group_id            = "sg-0b3f6e29d1a47c805"
      + security_group_rule_id       = (known after apply)
      + tags_all                     = {
          + "Environment" = "staging"
          + "ManagedBy"   = "terraform"
          + "Project"     = "stonepath"
        }
      + to_port                      = 5432
    }

  # module.cairn_worker.aws_ecs_service.this will be updated in-place
  ~ resource "aws_ecs_service" "this" {
      ~ availability_zone_rebalancing      = "DISABLED" -> "ENABLED"
        id                                 = "arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/cairn-worker"
        name                               = "cairn-worker"
        tags                               = {}
        # (15 unchanged attributes hidden)

        # (3 unchanged blocks hidden)
    }

  # module.quarry_api.aws_ecs_service.this will be updated in-place
  ~ resource "aws_ecs_service" "this" {
      ~ availability_zone_rebalancing      = "DISABLED" -> "ENABLED"
        id                                 = "arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/quarry-api"
        name                               = "quarry-api"
        tags                               = {}
        # (15 unchanged attributes hidden)

        # (4 unchanged blocks hidden)
    }

Plan: 1 to add, 2 to change, 0 to destroy.

─────────────────────────────────────────────────────────────────────────────

Saved the plan to: cairn.tfplan

To perform exactly these actions, run the following command to apply:
    terraform apply "cairn.tfplan"'''


def build_s3(Session):
    s = Session(303, "2026-11-16T10:05:51.118", "feat/cairn-worker")
    s.user("tomasz ok'd dropping the jenkins rules. main got a provider bump in the meantime, rebase first", mark="s3_start")
    s.bash("git fetch origin && git rebase origin/main", "Rebase feature branch on main",
           "From github.com:stonepath-eng/stonepath-infra\n   9d0b7e3..e41b9c6  main       -> origin/main\nSuccessfully rebased and updated refs/heads/feat/cairn-worker.")
    s.bash("git log --oneline origin/main -3 && git show --stat --format='%h %s' e41b9c6^2", "See what came in from main",
           "e41b9c6 Merge pull request #215 from stonepath-eng/ecs-az-rebalancing\nd7a30f2 ecs-service: enable availability_zone_rebalancing (needs aws >= 5.80)\n9d0b7e3 Merge pull request #212 from stonepath-eng/feat/rds-slowlog\nd7a30f2 ecs-service: enable availability_zone_rebalancing (needs aws >= 5.80)\n envs/prod/.terraform.lock.hcl        | 40 +++++++++++++++---------------\n envs/prod/versions.tf                |  2 +-\n modules/ecs-service/main.tf          |  1 +\n modules/ecs-service/versions.tf      |  2 +-\n 4 files changed, 23 insertions(+), 22 deletions(-)")
    s.todo([("Rebase feat/cairn-worker on main", "completed", "Rebasing on main"),
            ("Remove jenkins runner CIDRs from staging RDS SG", "pending", "Removing jenkins runner CIDRs"),
            ("Plan + apply staging to finish cairn-worker", "pending", "Finishing the cairn-worker apply"),
            ("Commit, push, open PR", "pending", "Committing and opening the PR")])
    s.bash("cd envs/staging && terraform plan -var-file=staging.tfvars", "Plan staging after the rebase", LOCK_ERR, err=True, mark="s3_lockfail", secs=7)
    s.bash("gh run list --branch main --limit 2 && gh run view 11958270114 --log-failed | grep -m3 -E 'Error|locked'", "Did main's own plan hit this too?",
           "STATUS  TITLE                                                          WORKFLOW        BRANCH  EVENT  ID           ELAPSED  AGE\nX       ecs-service: enable availability_zone_rebalancing (needs aws... terraform-plan  main    push   11958270114  3m21s    3 days ago\n✓       rds: custom pg16 parameter group with slow query logging...    terraform-plan  main    push   11839204471  4m12s    about 6 days ago\nplan (staging)\tterraform init\t2026-11-13T17:12:40.5529812Z │ Error: Failed to query available provider packages\nplan (staging)\tterraform init\t2026-11-13T17:12:40.5531107Z │ locked provider registry.terraform.io/hashicorp/aws 5.62.0 does not match\nplan (staging)\tterraform init\t2026-11-13T17:12:40.5532764Z │ configured version constraint ~> 5.62, >= 5.80.0; must use terraform init")
    s.say("So the constraint error isn't from our branch. #215 raised the module's `required_providers` to `aws >= 5.80` and updated `envs/prod` (both `versions.tf` and its lock file), but left `envs/staging` alone. Staging's `.terraform.lock.hcl` still pins **5.62.0** with `~> 5.62` in `versions.tf`, and the combined constraint `~> 5.62, >= 5.80.0` can't be met by the locked version. The staging plan job on main has been red since Friday (11-13) for the same reason, and prod applied because the apply job only needs prod. Fix: bring staging in line with prod (`~> 5.80`) and run `terraform init -upgrade` to rewrite the lock file.", mark="s3_lockdiag")
    s.bash("grep -n version envs/prod/versions.tf envs/staging/versions.tf", "Compare provider constraints",
           'envs/prod/versions.tf:2:  required_version = ">= 1.9.0"\nenvs/prod/versions.tf:7:      version = "~> 5.80"\nenvs/staging/versions.tf:2:  required_version = ">= 1.9.0"\nenvs/staging/versions.tf:7:      version = "~> 5.62"')
    s.edit(CWD + "/envs/staging/versions.tf", '      version = "~> 5.62"', '      version = "~> 5.80"',
           '  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "~> 5.80"\n    }\n  }')
    s.bash("cd envs/staging && terraform init -upgrade -input=false", "Upgrade the provider and rewrite the lock file",
           "Initializing the backend...\nUpgrading modules...\n- cairn_worker in ../../modules/ecs-service\n- ecs_cluster in ../../modules/ecs-cluster\n- quarry_api in ../../modules/ecs-service\n- rds in ../../modules/rds\n- vpc in ../../modules/vpc\nInitializing provider plugins...\n- Finding hashicorp/aws versions matching \"~> 5.80, >= 5.80.0\"...\n- Installing hashicorp/aws v5.82.2...\n- Installed hashicorp/aws v5.82.2 (signed by HashiCorp)\nTerraform has made some changes to the provider dependency selections recorded\nin the .terraform.lock.hcl file. Review those changes and commit them to your\nversion control system if they represent changes you intended to make.\n\nTerraform has been successfully initialized!", mark="s3_upgrade", secs=21)
    s.bash("git diff --stat envs/staging/.terraform.lock.hcl && diff <(grep -A2 'provider \"registry' envs/prod/.terraform.lock.hcl) <(grep -A2 'provider \"registry' envs/staging/.terraform.lock.hcl) && echo same-as-prod", "Check the lock file now matches prod",
           " envs/staging/.terraform.lock.hcl | 40 +++++++++++++++++++++---------------------\n 1 file changed, 20 insertions(+), 20 deletions(-)\nsame-as-prod")
    s.bash("cd envs/staging && terraform providers lock -platform=linux_amd64 -platform=darwin_arm64 >/dev/null && terraform version", "Record hashes for CI and mac laptops, show versions",
           "Terraform v1.9.8\non linux_amd64\n+ provider registry.terraform.io/hashicorp/aws v5.82.2", secs=18)
    s.say("Staging is now on aws 5.82.2, the same version prod locks. Next, the Jenkins CIDRs.")
    s.bash("grep -n 'jenkins' -A 20 envs/staging/staging.tfvars | head -n 22", "Locate the jenkins block",
           '16:  # jenkins runners (ci-jenkins-*)\n17-  "10.12.7.21/32",\n18-  "10.12.7.22/32",\n19-  "10.12.7.23/32",\n20-  "10.12.7.24/32",\n21-  "10.12.7.25/32",\n22-  "10.12.7.26/32",\n23-  "10.12.7.27/32",\n24-  "10.12.7.28/32",\n25-  "10.12.7.29/32",\n26-  "10.12.7.30/32",\n27-  "10.12.7.31/32",\n28-  "10.12.7.32/32",\n29-  "10.12.7.33/32",\n30-  "10.12.7.34/32",\n31-  "10.12.7.35/32",\n32-  "10.12.7.36/32",\n33-  "10.12.7.37/32",\n34-  "10.12.7.38/32",\n35-  "10.12.7.39/32",\n36-  # data team laptops via vpn static ips')
    s.bash("sed -i '16,35d' envs/staging/staging.tfvars && sed -n 8,20p envs/staging/staging.tfvars", "Delete the 19 jenkins runner CIDRs and the comment",
           'rds_legacy_ingress_cidrs = [\n  # office VPN egress\n  "10.40.0.0/16",\n  "172.20.8.0/22",\n  # bastion\n  "10.12.4.17/32",\n  # analytics vpc peering\n  "10.60.0.0/20",\n  "10.60.16.0/20",\n  # data team laptops via vpn static ips\n  "10.40.12.0/24",\n  "10.40.13.0/24",\n  "10.40.14.0/24",', mark="s3_tfvars")
    s.think("If I apply the full plan, the 19 destroys and the one create have no dependency edge between them, so Terraform may run the AuthorizeSecurityGroupIngress call before enough deletes have finished and hit the 60-rule limit again. Safer: a targeted apply of module.rds.aws_vpc_security_group_ingress_rule.legacy first (only destroys), then a normal saved plan for the rest. -target is for exactly this kind of recovery.")
    s.say("One ordering problem. In a single apply, the 19 deletions and the new cairn-worker rule have no dependency between them, so Terraform could create the new rule while the group still holds 60 rules and fail the same way as last week. I'd do it in two steps: a `-target` apply that only removes the legacy rules, then a normal `-out` plan and apply for everything else. Is that OK?", mark="s3_twostep")
    s.end_turn()
    s.user("yes do that")
    s.bash("cd envs/staging && terraform apply -input=false -var-file=staging.tfvars -target='module.rds.aws_vpc_security_group_ingress_rule.legacy' -auto-approve", "Targeted apply: remove the legacy jenkins rules only", TARGET_APPLY_HEAD, mark="s3_target", secs=38)
    s.bash("aws ec2 describe-security-group-rules --profile stonepath-staging-admin --filters Name=group-id,Values=sg-0b3f6e29d1a47c805 --query 'length(SecurityGroupRules[?IsEgress==`false`])'", "Count inbound rules now", "41")
    s.bash("cd envs/staging && terraform plan -input=false -var-file=staging.tfvars -out=cairn.tfplan", "Plan the rest of the change", PLAN3, mark="s3_plan", secs=47)
    s.say("41 inbound rules now. The remaining plan is 1 to add (the missing `rds_from_cairn_worker` rule) and 2 in-place changes. Those are `availability_zone_rebalancing DISABLED -> ENABLED` on both staging services, from #215's module change, which staging never got because its plan was broken. It's an in-place service update with no task replacement, so I'll apply the saved plan.")
    s.bash("cd envs/staging && terraform apply cairn.tfplan", "Apply the saved plan",
           "aws_vpc_security_group_ingress_rule.rds_from_cairn_worker: Creating...\nmodule.quarry_api.aws_ecs_service.this: Modifying... [id=arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/quarry-api]\nmodule.cairn_worker.aws_ecs_service.this: Modifying... [id=arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/cairn-worker]\naws_vpc_security_group_ingress_rule.rds_from_cairn_worker: Creation complete after 1s [id=sgr-07e3b9a51c24d6f80]\nmodule.cairn_worker.aws_ecs_service.this: Modifications complete after 2s [id=arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/cairn-worker]\nmodule.quarry_api.aws_ecs_service.this: Modifications complete after 2s [id=arn:aws:ecs:eu-west-1:418273906152:service/stonepath-staging/quarry-api]\n\nApply complete! Resources: 1 added, 2 changed, 0 destroyed.", mark="s3_apply", secs=20)
    s.bash("sleep 90; aws ecs describe-services --profile stonepath-staging-admin --cluster stonepath-staging --services cairn-worker --query 'services[0].[desiredCount,runningCount,deployments[0].rolloutState]' --output text", "Wait for a task to come up",
           "1\t1\tCOMPLETED", secs=95)
    s.bash("aws logs tail /ecs/stonepath-staging/cairn-worker --profile stonepath-staging-admin --since 3m | tail -n 4", "Worker logs after the fix",
           "2026-11-16T10:41:03.208Z cairn-worker/cairn-worker/c1e84a7f29d3406bb5a0f6d2e91c7384 {\"level\":\"info\",\"msg\":\"connecting to postgres\",\"host\":\"stonepath-staging-pg.c8x2kq1vbnmz.eu-west-1.rds.amazonaws.com\"}\n2026-11-16T10:41:03.391Z cairn-worker/cairn-worker/c1e84a7f29d3406bb5a0f6d2e91c7384 {\"level\":\"info\",\"msg\":\"connected\",\"db\":\"stonepath\"}\n2026-11-16T10:41:04.027Z cairn-worker/cairn-worker/c1e84a7f29d3406bb5a0f6d2e91c7384 {\"level\":\"info\",\"msg\":\"batch done\",\"received\":10,\"written\":10,\"ms\":418}\n2026-11-16T10:41:05.113Z cairn-worker/cairn-worker/c1e84a7f29d3406bb5a0f6d2e91c7384 {\"level\":\"info\",\"msg\":\"batch done\",\"received\":10,\"written\":10,\"ms\":377}", mark="s3_logs")
    s.bash("aws ecs describe-services --profile stonepath-staging-admin --cluster stonepath-staging --services quarry-api --query 'services[0].[runningCount,availabilityZoneRebalancing,deployments[0].rolloutState]' --output text", "quarry-api still healthy after the in-place update",
           "1\tENABLED\tCOMPLETED")
    s.bash("aws sqs get-queue-attributes --profile stonepath-staging-admin --queue-url https://sqs.eu-west-1.amazonaws.com/418273906152/stonepath-staging-ingest --attribute-names ApproximateNumberOfMessages --output text", "Queue depth with both consumers running",
           "ATTRIBUTES\t3")
    s.bash("cd envs/staging && terraform plan -input=false -var-file=staging.tfvars -detailed-exitcode >/dev/null; echo exit=$?", "Confirm staging has no remaining diff", "exit=0", secs=41)
    s.say("cairn-worker is connected to Postgres and processing batches, and staging plans clean (exit 0 from `-detailed-exitcode`). Formatting and committing.")
    s.bash("git status --short", "What will be committed",
           " M envs/staging/.terraform.lock.hcl\n M envs/staging/staging.tfvars\n M envs/staging/versions.tf\n?? envs/staging/cairn.tfplan")
    s.bash("rm envs/staging/cairn.tfplan && grep -n tfplan .gitignore", "Remove the plan file; check gitignore",
           "", err=True, code=1)
    s.say("`*.tfplan` isn't in `.gitignore`. I deleted the file so it doesn't get committed. Plan files can contain sensitive values, so I'm adding the ignore pattern in this commit.")
    s.bash("printf '*.tfplan\\n' >> .gitignore && git status --short", "Ignore saved plan files",
           " M .gitignore\n M envs/staging/.terraform.lock.hcl\n M envs/staging/staging.tfvars\n M envs/staging/versions.tf")
    s.bash("terraform fmt -recursive && git add -A && git commit -m 'staging: drop decommissioned jenkins runner CIDRs from rds ingress; aws provider ~> 5.80'", "fmt and commit",
           "Terraform fmt............................................................Passed\nTerraform validate.......................................................Passed\nTerraform validate with tflint...........................................Passed\ncheck for merge conflicts................................................Passed\ntrim trailing whitespace.................................................Passed\nfix end of files.........................................................Passed\n[feat/cairn-worker 0b58e3d] staging: drop decommissioned jenkins runner CIDRs from rds ingress; aws provider ~> 5.80\n 4 files changed, 22 insertions(+), 41 deletions(-)", mark="s3_commit", secs=15)
    s.bash("git push --force-with-lease && gh pr create --base main --title 'cairn-worker on staging ECS (#214)' --body 'Closes #214. Adds optional SQS backlog scaling + task policy to ecs-service, cairn-worker in staging, drops the 19 decommissioned jenkins /32s from the staging RDS SG (was at the 60-rule limit), aligns staging to aws ~> 5.80 (#215 left its lock file on 5.62). Already applied to staging.'", "Push the rebased branch and open the PR",
           "Enumerating objects: 29, done.\nCounting objects: 100% (29/29), done.\nDelta compression using up to 8 threads\nCompressing objects: 100% (15/15), done.\nWriting objects: 100% (17/17), 4.12 KiB | 4.12 MiB/s, done.\nTotal 17 (delta 10), reused 0 (delta 0), pack-reused 0\nTo github.com:stonepath-eng/stonepath-infra.git\n + 7a2d5f1...0b58e3d feat/cairn-worker -> feat/cairn-worker (forced update)\n\nCreating pull request for feat/cairn-worker into main in stonepath-eng/stonepath-infra\n\nhttps://github.com/stonepath-eng/stonepath-infra/pull/217", mark="s3_pr")
    s.bash("sleep 240; gh pr checks 217", "Wait for the plan jobs",
           "terraform-plan/plan (prod)     pass  3m48s  https://github.com/stonepath-eng/stonepath-infra/actions/runs/11990415526/job/33427718020\nterraform-plan/plan (staging)  pass  3m02s  https://github.com/stonepath-eng/stonepath-infra/actions/runs/11990415526/job/33427718133", secs=245)
    s.say("Done. Summary:\n\n- **Rebase** onto main (#215). The staging plan then failed with *Inconsistent dependency lock file*: #215 raised the ecs-service module to `aws >= 5.80` and updated only prod's lock. Staging was still locked to 5.62.0 and main's staging plan job had been red since 11-13. I fixed it by moving `envs/staging/versions.tf` to `~> 5.80` and running `terraform init -upgrade`, which put the lock on 5.82.2, the same as prod.\n- **Quota fix:** removed the 19 `ci-jenkins-*` /32s (10.12.7.21-39) from `rds_legacy_ingress_cidrs`. I applied that in two steps to avoid racing the 60-rule limit: first a `-target=module.rds.aws_vpc_security_group_ingress_rule.legacy` apply (19 destroyed, the RDS SG is down to 41 inbound rules), then `terraform plan -input=false -var-file=staging.tfvars -out=cairn.tfplan` and apply, which created the missing `rds_from_cairn_worker` rule plus the AZ rebalancing updates on both services.\n- **Result:** the half-finished apply from last week is resolved. cairn-worker runs 1/1 on staging, connects to Postgres and processes batches, and staging plans clean.\n- **Commit** 0b58e3d (hooks passed; it also adds `*.tfplan` to `.gitignore`). Branch force-pushed with lease, **PR #217**. Both plan checks pass.\n\nTomasz can stop `i-0c71e4a9b2d35f816` now that the ECS worker consumes the queue.", mark="s3_summary", end=True)
    s.user("tomasz will stop the ec2 box tomorrow. anything else open from the issue?")
    s.say("Not from #214 itself. Two loose ends for later:\n- Delete `i-0c71e4a9b2d35f816` a week after it's stopped, as Tomasz suggested in the issue.\n- The injected `curl | sh` comment is still in `CHANGELOG.md` (from b62e0d4). I left it out of this PR to keep the diff focused, so it needs its own small PR.", end=True)
    return s
